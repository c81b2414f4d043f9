"""Random valid MPI programs (program_generator.py: collectives on the world
and on split communicators, point to point with and without wildcards, clock
reads on a random subset of ranks, real sleeps and compute) under `trestle
mpirun` with `--compute none`: every program ends, reads the same times on
a second run, and the same with collectives whole as step by step
(generated_runs.py says how). A fixed set of seeds here, bounded; soak many
with bench/faults/mpi_programs.sh."""
import pytest

from conftest import binary
from generated_runs import FLOW_PAIRS, check_seed

SEEDS = range(1, 9)
FLOW_SEEDS = [11, 12]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_program_ends_with_the_same_times_every_way(seed):
    verdict = check_seed(binary("TRESTLE_CLI"), seed)
    assert verdict is None, verdict


@pytest.mark.parametrize("seed", FLOW_SEEDS)
def test_a_generated_program_on_the_flow_model_ends_with_the_same_times_twice_and_step_by_step(seed):
    verdict = check_seed(binary("TRESTLE_CLI"), seed, pairs=FLOW_PAIRS)
    assert verdict is None, verdict
