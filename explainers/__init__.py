"""xlalens explainers: pages that teach each mechanism, and the calculators they use."""
