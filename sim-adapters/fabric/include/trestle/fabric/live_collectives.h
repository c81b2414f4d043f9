// LiveCollectives: the fabric adapter's replay of the collectives ranks send
// as one message (Transit.collectives, a serialized wire::CollectiveBatch;
// docs/protocol.md, "Collectives"), in place of every mirrored message of
// their point-to-point patterns.
//
// The rule, the one a lockstep rank follows when it mirrors each message
// itself (libtrestle-mpi's steps mirror, CollectiveReplay):
//   - a rank's collectives run in the order it sent them; the first of a
//     transit starts at the later of its t_send and the end of the rank's
//     previous collective, each plus its compute_ns;
//   - a rank runs its part of collective (group, instance) as soon as it
//     has reached it, as far as the messages of the members that have
//     reached it let it (a replay in parts: a member that has not sent its
//     entry yet holds back only those that wait for it);
//   - in each step a rank sends every message of the step at its clock,
//     then waits for the step's receives (matched by sender and label); its
//     clock moves to the later of the clock and their arrivals, plus the
//     step's reduce_ns; it is done after its last step;
//   - messages due at one time within a collective go into the model in
//     client-id order, as a lockstep adapter would submit them.
// A transit ends when its rank has finished its last collective in it (one
// with none ends at its t_send).
//
// Only for a model that prices each message at once and keeps no clock
// (NetworkModel::CompletesOnSubmit): the replay submits each message at its
// own t_send, as the time comes in the replay, not the model's.
//
// Costs: one Submit per message of a pattern, a hash lookup per message and
// per receive, O(log members) per step; a collective's state (its members,
// their messages) is kept until every member has finished it.
// Threading: one thread.
#ifndef TRESTLE_FABRIC_LIVE_COLLECTIVES_H_
#define TRESTLE_FABRIC_LIVE_COLLECTIVES_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/fabric/link.h"
#include "trestle/fabric/network_model.h"

namespace trestle::fabric {

class LiveCollectives {
 public:
  // A transit whose collectives all ended (or that was refused: `dropped`).
  struct Ended {
    std::uint64_t transit_id = 0;
    std::uint64_t t_ns = 0;
    bool dropped = false;
  };
  // The endpoint of a client id, or kNoNode.
  using Resolve = std::function<NodeId(const std::string& client_id)>;

  // `model` must outlive this object and complete every message on Submit.
  LiveCollectives(NetworkModel& model, Resolve resolve);

  // Takes the collectives of transit `transit_id`, sent by `rank` (a client
  // id) at `t_send`; appends to *ended every transit that ended by it (this
  // one or transits held before). A batch that does not parse, or that
  // names an unmapped peer, is refused: the transit ends dropped at t_send,
  // and the error names why. A collective whose members disagree (their
  // count, a receive no member sends) drops every transit of its members
  // that it holds, with an error naming the collective.
  absl::Status Take(std::uint64_t transit_id, const std::string& rank, std::uint64_t t_send,
                    std::string_view batch, std::vector<Ended>* ended);

  // Transits held: a rank of theirs waits, in a collective, for a message
  // that depends on a member's entry not come yet. Each ends no earlier
  // than that member's start plus the lowest latency of any message.
  std::size_t held() const { return open_transits_.size(); }
  // The lowest latency of a message from one rank to another: between two
  // endpoints, or to itself once two ranks share an endpoint.
  double MinRankToRankNs() const;

 private:
  struct Send {
    std::uint32_t peer;  // rank index
    std::int32_t label;
    std::uint64_t bytes;
  };
  struct Recv {
    std::uint32_t peer;
    std::int32_t label;
  };
  struct Step {
    std::vector<Send> sends;
    std::vector<Recv> recvs;
    std::uint64_t reduce_ns = 0;
  };
  using Key = std::pair<std::uint64_t, std::uint64_t>;  // (group, instance)
  struct Entry {
    Key key;
    std::uint32_t members = 0;
    std::uint64_t compute_ns = 0;
    std::vector<Step> steps;
    std::uint64_t transit_id = 0;
    std::uint64_t t_send = 0;
  };
  struct Rank {
    std::string id;
    NodeId endpoint = kNoNode;
    std::uint64_t clock = 0;    // the end of its last collective
    std::deque<Entry> entries;  // sent, not run yet, in order
  };
  struct OpenTransit {
    std::uint64_t t_send = 0;
    std::uint32_t left = 0;  // entries not run yet
  };

  // A member of an open collective: its rank, its step, and when it sent
  // that step's messages.
  struct Member {
    std::uint32_t rank = 0;
    std::uint32_t step = 0;
    std::uint64_t at = 0;
    bool waiting = false;
  };
  // A collective some member has reached: the members so far, the messages
  // sent in it, and the members' steps due (a heap by time, then client id).
  struct Open {
    std::uint32_t expected = 0;
    std::vector<Member> members;
    absl::flat_hash_map<std::uint32_t, std::uint32_t> position;  // rank -> members index
    absl::flat_hash_map<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>, std::uint64_t>
        arrivals;  // (sender, receiver, label) -> arrival
    std::vector<std::pair<std::uint64_t, std::uint32_t>> due;  // (time, member)
    std::uint32_t done = 0;
  };

  // The index of client id `id`, interned on first sight.
  absl::StatusOr<std::uint32_t> RankOf(const std::string& id);
  // Rank `r`'s head entry joins its collective, and every rank whose next
  // entry becomes its head meanwhile joins its own.
  void Join(std::uint32_t r, std::vector<Ended>* ended, absl::Status* error);
  // Runs the members of `c` as far as the messages sent so far let them;
  // appends to *joins the ranks that finished it and have a next entry.
  void Drive(Open& c, std::vector<std::uint32_t>* joins, std::vector<Ended>* ended);
  // Member `m` of `c` takes its step's messages if they have all come.
  void TryTake(Open& c, std::uint32_t m, std::vector<std::uint32_t>* joins,
               std::vector<Ended>* ended);
  void PushDue(Open& c, std::uint64_t t, std::uint32_t m);
  // The heap order of c.due: by time, then client id (the order a lockstep
  // adapter takes ties in).
  auto DueLater(const Open& c) const {
    return [this, &c](const std::pair<std::uint64_t, std::uint32_t>& a,
                      const std::pair<std::uint64_t, std::uint32_t>& b) {
      if (a.first != b.first) return a.first > b.first;
      return ranks_[c.members[a.second].rank].id > ranks_[c.members[b.second].rank].id;
    };
  }
  // Ends the head entry of rank `r` at `t`; the transit, if its last.
  void Finish(std::uint32_t r, std::uint64_t t, bool dropped, std::vector<Ended>* ended);
  // Drops collective `key`: every member that has not finished it.
  void DropOpen(const Key& key, std::vector<Ended>* ended);

  NetworkModel& model_;
  Resolve resolve_;
  std::vector<Rank> ranks_;
  absl::flat_hash_map<std::string, std::uint32_t> rank_of_;
  absl::flat_hash_map<Key, Open> open_;
  absl::flat_hash_map<std::uint64_t, OpenTransit> open_transits_;
  std::vector<ModelCompletion> completed_;  // reused
  std::uint64_t next_message_id_ = 0;
  bool shared_endpoint_ = false;  // two ranks on one endpoint
  absl::flat_hash_map<NodeId, std::uint32_t> rank_on_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_LIVE_COLLECTIVES_H_
