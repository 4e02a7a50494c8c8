/**
 * The calculators "xlalens: Open Calculator" offers when no finding under the cursor links one.
 */

export interface CalculatorChoice {
    /** The name in `calc/<name>` (explainers/calculators). */
    name: string;
    description: string;
}

export const CALCULATORS: readonly CalculatorChoice[] = [
    { name: 'blockspec', description: 'Pallas BlockSpec: grid steps, padding, VMEM bytes' },
    { name: 'carry-check', description: 'lax.scan/fori_loop/while_loop/cond: does the carry keep its type' },
    { name: 'graph-hash', description: 'torch_xla: which steps compile a new graph, and what padding leaves' },
    { name: 'pipeline', description: 'Pallas TPU pipeline: blocks copied in and written back per grid step' },
    { name: 'pytree', description: 'Pytrees: leaves, key paths, and where two structures differ' },
    { name: 'remat', description: 'jax.checkpoint: activations grad keeps under each policy' },
    { name: 'reshard', description: 'Resharding: the collective between two PartitionSpecs and bytes per device' },
    { name: 'retrace', description: 'jax.jit: which calls trace and compile again, and why' },
    { name: 'roofline', description: 'Matmul roofline: FLOPs, bytes, compute or memory bound' },
    { name: 'shard-shape', description: 'NamedSharding: per-device shard shape, replication, bytes' },
    { name: 'sync-cost', description: 'torch_xla: graph executions, transfers and compiles per step' },
    { name: 'transform-stack', description: 'jit/grad/vmap/jacfwd/jacrev stacks: the shapes in each order, or the error' },
    { name: 'vmap-axes', description: 'jax.vmap: batch size, per-call shapes and output shape for in_axes/out_axes' },
];
