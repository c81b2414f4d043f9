#include "collective_batch.h"

#include <cmath>
#include <utility>

namespace trestle::mpi {

CollectiveBatch::CollectiveBatch(std::vector<std::string> ids, double reduce_bytes_per_second)
    : ids_(std::move(ids)), reduce_bytes_per_second_(reduce_bytes_per_second) {}

void CollectiveBatch::Add(std::uint64_t comm_id, const std::vector<int>& world_of,
                          std::uint32_t instance, const CollectivePlan& plan) {
  wire::RankCollective* c = batch_.add_collectives();
  c->set_group(comm_id);
  c->set_instance(instance);
  c->set_members(static_cast<std::uint32_t>(world_of.size()));
  c->set_compute_ns(TakeCompute());
  for (const PlanStep& step : plan) {
    wire::CollectiveStep* s = c->add_steps();
    for (const PlanSend& send : step.sends) {
      wire::CollectiveSend* out = s->add_sends();
      out->set_peer(ids_[world_of[send.peer]]);
      out->set_label(send.label);
      out->set_bytes(send.bytes);
    }
    for (const PlanRecv& recv : step.recvs) {
      wire::CollectiveRecv* out = s->add_recvs();
      out->set_peer(ids_[world_of[recv.peer]]);
      out->set_label(recv.label);
    }
    s->set_reduce_ns(step.reduce_bytes != 0 && reduce_bytes_per_second_ > 0
                         ? static_cast<std::uint64_t>(std::llround(
                               static_cast<double>(step.reduce_bytes) * 1e9 /
                               reduce_bytes_per_second_))
                         : 0);
  }
}

std::uint64_t CollectiveBatch::TakeCompute() { return std::exchange(compute_ns_, 0); }

void CollectiveBatch::Take(std::string* out) {
  batch_.SerializeToString(out);
  batch_.Clear();
  ++sent_;
}

}  // namespace trestle::mpi
