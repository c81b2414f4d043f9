#include "trestle/fabric/live_collectives.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "trestle/platform/check.h"
#include "trestle.pb.h"

namespace trestle::fabric {

LiveCollectives::LiveCollectives(NetworkModel& model, Resolve resolve)
    : model_(model), resolve_(std::move(resolve)) {}

absl::StatusOr<std::uint32_t> LiveCollectives::RankOf(const std::string& id) {
  if (auto it = rank_of_.find(id); it != rank_of_.end()) return it->second;
  const NodeId endpoint = resolve_(id);
  if (endpoint == kNoNode) {
    return absl::InvalidArgumentError(absl::StrCat("client id '", id, "' has no endpoint"));
  }
  const auto r = static_cast<std::uint32_t>(ranks_.size());
  if (!rank_on_.emplace(endpoint, r).second) shared_endpoint_ = true;
  ranks_.push_back(Rank{id, endpoint, 0, {}});
  rank_of_.emplace(id, r);
  return r;
}

absl::Status LiveCollectives::Take(std::uint64_t transit_id, const std::string& rank,
                                   std::uint64_t t_send, std::string_view batch,
                                   std::vector<Ended>* ended) {
  auto refuse = [&](absl::Status why) {
    ended->push_back(Ended{transit_id, t_send, true});
    return absl::InvalidArgumentError(
        absl::StrCat("collectives of ", rank, " (message ", transit_id, "): ", why.message()));
  };
  wire::CollectiveBatch parsed;
  if (!parsed.ParseFromArray(batch.data(), static_cast<int>(batch.size()))) {
    return refuse(absl::InvalidArgumentError("not a serialized trestle.wire.CollectiveBatch"));
  }
  absl::StatusOr<std::uint32_t> r = RankOf(rank);
  if (!r.ok()) return refuse(r.status());
  std::vector<Entry> entries;
  entries.reserve(parsed.collectives_size());
  for (const wire::RankCollective& c : parsed.collectives()) {
    Entry e;
    e.key = {c.group(), c.instance()};
    e.members = c.members();
    e.compute_ns = c.compute_ns();
    e.transit_id = transit_id;
    e.t_send = t_send;
    if (e.members == 0) {
      return refuse(absl::InvalidArgumentError(absl::StrCat(
          "collective (group ", c.group(), ", instance ", c.instance(), ") has 0 members")));
    }
    for (const wire::CollectiveStep& s : c.steps()) {
      Step step;
      step.reduce_ns = s.reduce_ns();
      for (const wire::CollectiveSend& send : s.sends()) {
        absl::StatusOr<std::uint32_t> peer = RankOf(send.peer());
        if (!peer.ok()) return refuse(peer.status());
        step.sends.push_back(Send{*peer, send.label(), send.bytes()});
      }
      for (const wire::CollectiveRecv& recv : s.recvs()) {
        absl::StatusOr<std::uint32_t> peer = RankOf(recv.peer());
        if (!peer.ok()) return refuse(peer.status());
        step.recvs.push_back(Recv{*peer, recv.label()});
      }
      e.steps.push_back(std::move(step));
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty()) {
    ended->push_back(Ended{transit_id, t_send, false});
    return absl::OkStatus();
  }
  open_transits_[transit_id] = OpenTransit{t_send, static_cast<std::uint32_t>(entries.size())};
  Rank& self = ranks_[*r];
  const bool idle = self.entries.empty();
  for (Entry& e : entries) self.entries.push_back(std::move(e));
  absl::Status error;
  if (idle) Join(*r, ended, &error);
  return error;
}

double LiveCollectives::MinRankToRankNs() const {
  const LatencyBounds bounds = model_.MinLatency();
  return shared_endpoint_ ? bounds.AnyMessageNs() : bounds.between_endpoints_ns;
}

void LiveCollectives::PushDue(const Key& key, Open& c, std::uint64_t t, std::uint32_t m) {
  ++c.active;
  due_.Push(platform::DueTimeKey{t, c.members[m].rank, due_sequence_++}, Due{key, m});
}

void LiveCollectives::Join(std::uint32_t first, std::vector<Ended>* ended, absl::Status* error) {
  std::vector<std::uint32_t> joins{first};
  while (!joins.empty()) {
    const std::uint32_t r = joins.back();
    joins.pop_back();
    Rank& rank = ranks_[r];
    const Entry& e = rank.entries.front();
    const Key key = e.key;
    Open& c = open_[key];
    auto fail = [&](std::string why) {
      if (error->ok()) {
        *error = absl::InvalidArgumentError(absl::StrCat(
            "collective (group ", key.first, ", instance ", key.second, "): ", why));
      }
      Finish(r, rank.clock, true, ended);
      if (!rank.entries.empty()) joins.push_back(r);
      DropOpen(key, ended);
    };
    if (c.members.empty()) c.expected = e.members;
    if (e.members != c.expected) {
      fail(absl::StrCat(rank.id, " says it has ", e.members, " members, but ",
                        ranks_[c.members.front().rank].id, " says ", c.expected));
      continue;
    }
    if (c.position.contains(r) || c.members.size() >= c.expected) {
      fail(absl::StrCat(rank.id, " sent an entry beyond its ", c.expected, " members"));
      continue;
    }
    const auto m = static_cast<std::uint32_t>(c.members.size());
    if (m == 0) ++incomplete_;
    c.position[r] = m;
    Member member;
    member.rank = r;
    member.at = std::max(e.t_send, rank.clock) + e.compute_ns;
    c.members.push_back(member);
    if (c.members.size() == c.expected) --incomplete_;
    if (e.steps.empty()) {
      rank.clock = member.at;
      ++c.done;
      Finish(r, member.at, false, ended);
      if (!rank.entries.empty()) joins.push_back(r);
    } else {
      PushDue(key, c, member.at, m);
    }
    Settle(key, c, ended, error);
  }
}

absl::Status LiveCollectives::Run(std::uint64_t grant, std::vector<ModelCompletion>* completed,
                                  std::vector<Ended>* ended) {
  absl::Status error;
  for (;;) {
    const std::uint64_t event = model_.NextEventNs();
    const std::uint64_t due = NextDueNs();
    const std::size_t from = completed->size();
    if (event < grant && event <= due) {
      model_.AdvanceTo(event, completed);
    } else if (due <= grant && due != NetworkModel::kNoEvent) {
      RunDue(completed, ended, &error);
    } else {
      return error;
    }
    TakeArrivals(completed, from, ended, &error);
  }
}

void LiveCollectives::TakeArrivals(std::vector<ModelCompletion>* completed, std::size_t from,
                                   std::vector<Ended>* ended, absl::Status* error) {
  if (in_flight_.empty()) return;
  std::size_t kept = from;
  for (std::size_t i = from; i < completed->size(); ++i) {
    if (!Arrived((*completed)[i], ended, error)) (*completed)[kept++] = (*completed)[i];
  }
  completed->resize(kept);
}

std::uint64_t LiveCollectives::NextDueNs() const {
  return due_.empty() ? NetworkModel::kNoEvent : due_.EarliestDue();
}

void LiveCollectives::RunDue(std::vector<ModelCompletion>* completed, std::vector<Ended>* ended,
                             absl::Status* error) {
  if (due_.empty()) return;
  due_.PopDue(due_.EarliestDue(), [&](DueQueue::Item&& item) {
    auto found = open_.find(item.value.key);
    if (found == open_.end()) return;  // dropped meanwhile
    Open& c = found->second;
    --c.active;
    Member& member = c.members[item.value.member];
    const std::uint64_t t = item.key.due;
    member.at = t;
    const Rank& rank = ranks_[member.rank];
    for (const Send& send : rank.entries.front().steps[member.step].sends) {
      const std::uint64_t id = next_message_id_++;
      TRESTLE_CHECK(id < kFirstDaemonId,
                    "LiveCollectives: 2^32 messages replayed; their ids would meet a daemon's");
      ++c.active;
      in_flight_.emplace(id, Flight{item.value.key, member.rank, send.peer, send.label});
      model_.Submit(ModelMessage{id, rank.endpoint, ranks_[send.peer].endpoint, send.bytes, 0, t,
                                 rank.entries.front().transit_id},
                    completed);
    }
    member.waiting = true;
    // Its receives may all be in already; it then moves on now (its next
    // step due, or done). Joins wait for the caller's next Arrived or
    // RunDue: they only push steps due at or after t.
    std::vector<std::uint32_t> joins;
    TryTake(c, item.value.member, &joins, ended);
    Settle(item.value.key, c, ended, error);
    JoinAll(joins, ended, error);
  });
}

bool LiveCollectives::Arrived(const ModelCompletion& completion, std::vector<Ended>* ended,
                              absl::Status* error) {
  if (completion.id >= kFirstDaemonId) return false;
  auto flight = in_flight_.find(completion.id);
  if (flight == in_flight_.end()) return false;
  const Flight f = flight->second;
  in_flight_.erase(flight);
  auto found = open_.find(f.key);
  if (found == open_.end()) return true;  // dropped meanwhile
  Open& c = found->second;
  --c.active;
  c.arrivals[{f.sender, f.receiver, f.label}] = completion.t_deliver_ns();
  std::vector<std::uint32_t> joins;
  auto p = c.position.find(f.receiver);
  if (p != c.position.end() && c.members[p->second].waiting) TryTake(c, p->second, &joins, ended);
  Settle(f.key, c, ended, error);
  JoinAll(joins, ended, error);
  return true;
}

void LiveCollectives::JoinAll(const std::vector<std::uint32_t>& joins, std::vector<Ended>* ended,
                              absl::Status* error) {
  for (std::uint32_t r : joins) Join(r, ended, error);
}

void LiveCollectives::TryTake(Open& c, std::uint32_t m, std::vector<std::uint32_t>* joins,
                              std::vector<Ended>* ended) {
  Member& member = c.members[m];
  Rank& rank = ranks_[member.rank];
  const Entry& e = rank.entries.front();
  const Step& step = e.steps[member.step];
  std::uint64_t t = member.at;
  for (const Recv& recv : step.recvs) {
    auto a = c.arrivals.find({recv.peer, member.rank, recv.label});
    if (a == c.arrivals.end()) return;
    t = std::max(t, a->second);
  }
  t += step.reduce_ns;
  member.waiting = false;
  if (++member.step < e.steps.size()) {
    PushDue(e.key, c, t, m);
    return;
  }
  rank.clock = t;
  ++c.done;
  Finish(member.rank, t, false, ended);
  if (!rank.entries.empty()) joins->push_back(member.rank);
}

void LiveCollectives::Settle(const Key& key, Open& c, std::vector<Ended>* ended,
                             absl::Status* error) {
  if (c.done == c.expected) {
    open_.erase(key);
    return;
  }
  if (c.members.size() < c.expected || c.active > 0) return;
  // Everyone is in, nothing is due or in flight: someone waits for a
  // message no member sends.
  std::string why = "a member waits for a message that no member sends";
  for (const Member& w : c.members) {
    const Rank& rank = ranks_[w.rank];
    if (!w.waiting || rank.entries.empty() || rank.entries.front().key != key) continue;
    for (const Recv& recv : rank.entries.front().steps[w.step].recvs) {
      if (!c.arrivals.contains({recv.peer, w.rank, recv.label})) {
        why = absl::StrCat(rank.id, " waits in step ", w.step, " for a message from ",
                           ranks_[recv.peer].id, " (label ", recv.label, ") that no member sends");
        break;
      }
    }
  }
  if (error->ok()) {
    *error = absl::InvalidArgumentError(
        absl::StrCat("collective (group ", key.first, ", instance ", key.second, "): ", why));
  }
  DropOpen(key, ended);
}

void LiveCollectives::DropOpen(const Key& key, std::vector<Ended>* ended) {
  auto it = open_.find(key);
  if (it == open_.end()) return;
  Open c = std::move(it->second);
  open_.erase(it);
  if (!c.members.empty() && c.members.size() < c.expected) --incomplete_;
  for (const Member& m : c.members) {
    Rank& rank = ranks_[m.rank];
    if (!rank.entries.empty() && rank.entries.front().key == key) {
      Finish(m.rank, rank.clock, true, ended);
      // What it sent after this collective is held by a transit now
      // dropped; its later entries stay queued and run as they come.
    }
  }
}

void LiveCollectives::Finish(std::uint32_t r, std::uint64_t t, bool dropped,
                             std::vector<Ended>* ended) {
  Rank& rank = ranks_[r];
  const std::uint64_t id = rank.entries.front().transit_id;
  rank.entries.pop_front();
  auto it = open_transits_.find(id);
  if (it == open_transits_.end()) return;  // dropped before
  if (dropped) {
    ended->push_back(Ended{id, it->second.t_send, true});
    open_transits_.erase(it);
    return;
  }
  if (--it->second.left == 0) {
    ended->push_back(Ended{id, t, false});
    open_transits_.erase(it);
  }
}

}  // namespace trestle::fabric
