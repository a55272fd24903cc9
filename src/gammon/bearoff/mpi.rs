//! The out-of-core two-sided build shared by MPI ranks (cargo feature `mpi`;
//! `docs/bearoff.md`, "Across machines"): rsmpi over the system's MPI, its collectives
//! only (a gather of each tile's blocks to rank 0, and barriers around the layer files).

use super::out_of_core::Split;
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// The ranks of an MPI communicator sharing a build.
pub struct Mpi {
    world: SimpleCommunicator,
}

impl Mpi {
    /// The ranks of `world` (`mpi::initialize()`'s universe's).
    pub fn new(world: SimpleCommunicator) -> Mpi {
        Mpi { world }
    }
}

impl Split for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn gather(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
        let counts: Vec<Count> = counts
            .iter()
            .map(|&c| Count::try_from(c).expect("a tile's share under 2 GB"))
            .collect();
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let lead = self.world.process_at_rank(0);
        if self.world.rank() == 0 {
            let mut part = PartitionMut::new(out, &counts[..], &displs[..]);
            lead.gather_varcount_into_root(mine, &mut part);
        } else {
            lead.gather_varcount_into(mine);
        }
    }

    fn barrier(&self) {
        self.world.barrier();
    }
}
