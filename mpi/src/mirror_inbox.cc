#include "mirror_inbox.h"

namespace trestle::mpi {

void MirrorInbox::TakeIn(const MirrorHeader& header, std::uint64_t t_deliver) {
  if (header.kind == MirrorHeader::Kind::kCollectivesEnd) {
    ++batches_ended_;
    return;
  }
  if (header.kind == MirrorHeader::Kind::kCollective) {
    steps_[StepKey{header.comm_id, header.number, header.label, header.src_world}] = t_deliver;
    return;
  }
  Queue(header.comm_id, header.src_world)
      .Arrive(header.number, MirrorArrival{t_deliver, header.bytes, header.label, ++taken_});
}

SourceQueue& MirrorInbox::Queue(std::uint64_t comm_id, int src_world) {
  std::unique_ptr<SourceQueue>& q = queues_[QueueKey{comm_id, src_world}];
  if (q == nullptr) {
    q = std::make_unique<SourceQueue>(src_world);
    by_comm_[comm_id].push_back(q.get());
  }
  return *q;
}

const SourceQueue* MirrorInbox::FindQueue(std::uint64_t comm_id, int src_world) const {
  auto it = queues_.find(QueueKey{comm_id, src_world});
  return it == queues_.end() ? nullptr : it->second.get();
}

const std::vector<SourceQueue*>& MirrorInbox::QueuesOf(std::uint64_t comm_id) const {
  static const std::vector<SourceQueue*> kNone;
  auto it = by_comm_.find(comm_id);
  return it == by_comm_.end() ? kNone : it->second;
}

bool MirrorInbox::HasStep(std::uint64_t comm_id, std::uint32_t instance, std::int32_t label,
                          int src_world) const {
  return steps_.contains(StepKey{comm_id, instance, label, src_world});
}

std::optional<std::uint64_t> MirrorInbox::TakeStep(std::uint64_t comm_id, std::uint32_t instance,
                                                   std::int32_t label, int src_world) {
  auto it = steps_.find(StepKey{comm_id, instance, label, src_world});
  if (it == steps_.end()) return std::nullopt;
  const std::uint64_t t = it->second;
  steps_.erase(it);
  return t;
}

}  // namespace trestle::mpi
