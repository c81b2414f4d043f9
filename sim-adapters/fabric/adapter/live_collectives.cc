#include "trestle/fabric/live_collectives.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
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

void LiveCollectives::PushDue(Open& c, std::uint64_t t, std::uint32_t m) {
  c.due.emplace_back(t, m);
  std::push_heap(c.due.begin(), c.due.end(), DueLater(c));
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
    c.position[r] = m;
    Member member;
    member.rank = r;
    member.at = std::max(e.t_send, rank.clock) + e.compute_ns;
    c.members.push_back(member);
    if (e.steps.empty()) {
      rank.clock = member.at;
      ++c.done;
      Finish(r, member.at, false, ended);
      if (!rank.entries.empty()) joins.push_back(r);
    } else {
      PushDue(c, member.at, m);
    }
    Drive(c, &joins, ended);
    if (c.done == c.expected) {
      open_.erase(key);
    } else if (c.members.size() == c.expected && c.due.empty()) {
      // Everyone is in and nothing is due: someone waits for a message no
      // member sends.
      std::string why = "a member waits for a message that no member sends";
      for (const Member& w : c.members) {
        const Entry& we = ranks_[w.rank].entries.front();
        if (!w.waiting || we.key != key) continue;
        for (const Recv& recv : we.steps[w.step].recvs) {
          if (!c.arrivals.contains({recv.peer, w.rank, recv.label})) {
            why = absl::StrCat(ranks_[w.rank].id, " waits in step ", w.step,
                               " for a message from ", ranks_[recv.peer].id, " (label ",
                               recv.label, ") that no member sends");
            break;
          }
        }
      }
      if (error->ok()) {
        *error = absl::InvalidArgumentError(absl::StrCat(
            "collective (group ", key.first, ", instance ", key.second, "): ", why));
      }
      DropOpen(key, ended);
    }
  }
}

void LiveCollectives::Drive(Open& c, std::vector<std::uint32_t>* joins,
                            std::vector<Ended>* ended) {
  while (!c.due.empty()) {
    std::pop_heap(c.due.begin(), c.due.end(), DueLater(c));
    const auto [t, m] = c.due.back();
    c.due.pop_back();
    Member& member = c.members[m];
    member.at = t;
    const Entry& e = ranks_[member.rank].entries.front();
    for (const Send& send : e.steps[member.step].sends) {
      completed_.clear();
      model_.Submit(ModelMessage{next_message_id_++, ranks_[member.rank].endpoint,
                                 ranks_[send.peer].endpoint, send.bytes, 0, t},
                    &completed_);
      // The model prices at once (CompletesOnSubmit) and never drops.
      const std::uint64_t arrival = completed_.empty() ? t : completed_.back().t_deliver_ns();
      c.arrivals[{member.rank, send.peer, send.label}] = arrival;
      auto p = c.position.find(send.peer);
      if (p != c.position.end() && c.members[p->second].waiting) {
        TryTake(c, p->second, joins, ended);
      }
    }
    c.members[m].waiting = true;
    TryTake(c, m, joins, ended);
  }
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
    PushDue(c, t, m);
    return;
  }
  rank.clock = t;
  ++c.done;
  Finish(member.rank, t, false, ended);
  if (!rank.entries.empty()) joins->push_back(member.rank);
}

void LiveCollectives::DropOpen(const Key& key, std::vector<Ended>* ended) {
  auto it = open_.find(key);
  if (it == open_.end()) return;
  Open c = std::move(it->second);
  open_.erase(it);
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
