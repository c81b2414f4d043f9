#include "receive_matcher.h"

#include <algorithm>

namespace trestle::mpi {

void ReceiveMatcher::Claim(ReceiveOp* op, int src_world, int tag) {
  inbox_.Queue(op->comm_id, src_world).Claim(tag, op);
}

void ReceiveMatcher::Post(ReceiveOp* op) {
  op->state = ReceiveOp::State::kUnresolved;
  std::list<ReceiveOp*>& pending = unresolved_[op->comm_id];
  if (pending.empty() && op->specific()) {
    Claim(op, op->src_world, op->tag);
    return;
  }
  pending.push_back(op);
  Resolve(op->comm_id);
}

void ReceiveMatcher::Resolve(std::uint64_t comm_id) {
  auto it = unresolved_.find(comm_id);
  if (it == unresolved_.end()) return;
  std::list<ReceiveOp*>& pending = it->second;
  // What the earlier receives still unresolved in this pass may take: the
  // pattern of one whose key is unknown, the key of one that knows it.
  std::vector<ReceiveOp> earlier;
  for (auto op = pending.begin(); op != pending.end();) {
    ReceiveOp* r = *op;
    const bool known = r->specific() || r->real_known;
    const int src = r->real_known ? r->real_src_world : r->src_world;
    const int tag = r->real_known ? r->real_tag : r->tag;
    const bool blocked = std::any_of(earlier.begin(), earlier.end(), [&](const ReceiveOp& e) {
      return e.Matches(src, tag);
    });
    if (known && !blocked) {
      op = pending.erase(op);
      Claim(r, src, tag);
      continue;
    }
    ReceiveOp& takes = earlier.emplace_back();
    takes.src_world = src;
    takes.tag = tag;
    ++op;
  }
}

void ReceiveMatcher::Withdraw(ReceiveOp* op) {
  auto it = unresolved_.find(op->comm_id);
  if (it != unresolved_.end()) it->second.remove(op);
  for (SourceQueue* q : inbox_.QueuesOf(op->comm_id)) q->Forget(op);
  Resolve(op->comm_id);
}

std::size_t ReceiveMatcher::Candidates(const ReceiveOp& pattern) const {
  if (pattern.src_world != ReceiveOp::kAny) {
    const SourceQueue* q = inbox_.FindQueue(pattern.comm_id, pattern.src_world);
    return q == nullptr ? 0 : q->Unassigned(pattern.tag);
  }
  std::size_t n = 0;
  for (const SourceQueue* q : inbox_.QueuesOf(pattern.comm_id)) n += q->Unassigned(pattern.tag);
  return n;
}

bool ReceiveMatcher::RealReceiveIsSafe(const ReceiveOp& op) const {
  std::size_t rivals = 0;
  auto it = unresolved_.find(op.comm_id);
  if (it != unresolved_.end()) {
    for (const ReceiveOp* e : it->second) {
      if (e == &op) break;
      if (e->Overlaps(op)) ++rivals;
    }
  }
  return Candidates(op) >= rivals + 1;
}

std::vector<ReceiveOp*> ReceiveMatcher::EarlierMatching(const ReceiveOp& op, int src_world,
                                                        int tag) const {
  std::vector<ReceiveOp*> out;
  auto it = unresolved_.find(op.comm_id);
  if (it == unresolved_.end()) return out;
  for (ReceiveOp* e : it->second) {
    if (e == &op) break;
    if (!e->real_known && !e->specific() && e->Matches(src_world, tag)) out.push_back(e);
  }
  return out;
}

bool ReceiveMatcher::RealProbeIsSafe(const ReceiveOp& probe) const {
  std::size_t rivals = 0;
  auto it = unresolved_.find(probe.comm_id);
  if (it != unresolved_.end()) {
    for (const ReceiveOp* e : it->second) rivals += e->Overlaps(probe) ? 1 : 0;
  }
  return Candidates(probe) >= rivals + 1;
}

std::vector<ReceiveOp*> ReceiveMatcher::UnresolvedMatching(std::uint64_t comm_id, int src_world,
                                                           int tag) const {
  std::vector<ReceiveOp*> out;
  auto it = unresolved_.find(comm_id);
  if (it == unresolved_.end()) return out;
  for (ReceiveOp* e : it->second) {
    if (!e->real_known && !e->specific() && e->Matches(src_world, tag)) out.push_back(e);
  }
  return out;
}

bool ReceiveMatcher::MirrorsDecide(const ReceiveOp& pattern) const {
  auto it = unresolved_.find(pattern.comm_id);
  if (it == unresolved_.end()) return true;
  return std::none_of(it->second.begin(), it->second.end(),
                      [&](const ReceiveOp* e) { return e->Overlaps(pattern); });
}

std::optional<std::pair<int, int>> ReceiveMatcher::FirstCandidate(const ReceiveOp& pattern) const {
  const MirrorArrival* first = nullptr;
  int src = 0;
  auto consider = [&](const SourceQueue* q) {
    const MirrorArrival* a = q == nullptr ? nullptr : q->FirstUnassigned(pattern.tag);
    if (a != nullptr && (first == nullptr || a->order < first->order)) {
      first = a;
      src = q->src_world();
    }
  };
  if (pattern.src_world != ReceiveOp::kAny) {
    consider(inbox_.FindQueue(pattern.comm_id, pattern.src_world));
  } else {
    for (const SourceQueue* q : inbox_.QueuesOf(pattern.comm_id)) consider(q);
  }
  if (first == nullptr) return std::nullopt;
  return std::make_pair(src, static_cast<int>(first->tag));
}

std::size_t ReceiveMatcher::unresolved(std::uint64_t comm_id) const {
  auto it = unresolved_.find(comm_id);
  return it == unresolved_.end() ? 0 : it->second.size();
}

}  // namespace trestle::mpi
