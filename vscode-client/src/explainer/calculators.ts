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
    { name: 'retrace', description: 'jax.jit: which calls trace and compile again, and why' },
    { name: 'roofline', description: 'Matmul roofline: FLOPs, bytes, compute or memory bound' },
    { name: 'shard-shape', description: 'NamedSharding: per-device shard shape, replication, bytes' },
    { name: 'sync-cost', description: 'torch_xla: graph executions, transfers and compiles per step' },
];
