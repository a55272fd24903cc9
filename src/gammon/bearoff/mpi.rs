//! The out-of-core two-sided build shared by MPI ranks (cargo feature `mpi`;
//! `docs/bearoff.md`, "Across machines"): rsmpi over the system's MPI, its collectives
//! only (a gather of each tile's blocks to rank 0, an all-to-all that transposes each row
//! tile among the ranks, and barriers around the layer files).

use super::out_of_core::Split;
use mpi::datatype::{Partition, PartitionMut};
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
        let (counts, displs) = counts_and_displacements(counts);
        let lead = self.world.process_at_rank(0);
        if self.world.rank() == 0 {
            let mut part = PartitionMut::new(out, &counts[..], &displs[..]);
            lead.gather_varcount_into_root(mine, &mut part);
        } else {
            lead.gather_varcount_into(mine);
        }
    }

    fn all_to_all(
        &self,
        send: &[u8],
        send_counts: &[usize],
        recv: &mut [u8],
        recv_counts: &[usize],
    ) {
        let (sc, sd) = counts_and_displacements(send_counts);
        let (rc, rd) = counts_and_displacements(recv_counts);
        let sent = Partition::new(send, &sc[..], &sd[..]);
        let mut got = PartitionMut::new(recv, &rc[..], &rd[..]);
        self.world.all_to_all_varcount_into(&sent, &mut got);
    }

    fn barrier(&self) {
        self.world.barrier();
    }
}

/// MPI's counts of bytes, and where each piece starts (the callers keep every tile under
/// 2 GB, `out_of_core`'s checks).
fn counts_and_displacements(counts: &[usize]) -> (Vec<Count>, Vec<Count>) {
    let counts: Vec<Count> = counts
        .iter()
        .map(|&c| Count::try_from(c).expect("a tile's share under 2 GB"))
        .collect();
    let displs = counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    (counts, displs)
}
