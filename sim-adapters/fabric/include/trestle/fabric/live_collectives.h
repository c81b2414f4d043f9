// LiveCollectives: the fabric adapter's replay of the collectives ranks send
// as one message (Transit.collectives, a serialized wire::CollectiveBatch;
// docs/protocol.md, "Collectives"), in place of every mirrored message of
// their point-to-point patterns. Its messages go into the adapter's one
// NetworkModel, in time order with every other transit: they share its
// links, connections and routing draws.
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
//   - steps due at one time go into the model in client-id order, as a
//     lockstep adapter submits transits.
// A transit ends when its rank has finished its last collective in it (one
// with none ends at its t_send).
//
// Driving it: Take() only learns a rank's part; Run(grant) advances the
// model through its events before `grant` and submits the steps due at or
// before it, interleaved by time (the model's events first at equal times:
// an arrival can start a step at its own time), and takes the replay's
// completions (ids below 2^32, never a daemon's message id: docs/protocol.md,
// "Message ids"). The caller submits the other transits itself, in time
// order with Run's grants, and gets their completions back from Run.
//
// Costs: one Submit per message of a pattern, a hash lookup per message and
// per receive, O(log steps due) per step; a collective's state (its members,
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
#include "trestle/platform/due_time_queue.h"

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

  // `model` must outlive this object.
  LiveCollectives(NetworkModel& model, Resolve resolve);
  LiveCollectives(const LiveCollectives&) = delete;
  LiveCollectives& operator=(const LiveCollectives&) = delete;

  // Takes the collectives of transit `transit_id`, sent by `rank` (a client
  // id) at `t_send`; appends to *ended every transit that ended by it (one
  // without steps to run). A batch that does not parse, or that names an
  // unmapped peer, is refused: the transit ends dropped at t_send, and the
  // error names why. A collective whose members disagree (their count, a
  // receive no member sends) drops every transit of its members that it
  // holds, with an error naming the collective.
  absl::Status Take(std::uint64_t transit_id, const std::string& rank, std::uint64_t t_send,
                    std::string_view batch, std::vector<Ended>* ended);

  // Runs the model's events before `grant` and the replay's steps due at or
  // before it, in time order; a step due at `grant` goes in as a message
  // pending at that time. Appends the completions of the model's other
  // messages to *completed, and the transits that ended to *ended.
  // Run(NetworkModel::kNoEvent) runs everything to its end. The error, if
  // any, names the first collective dropped meanwhile (its members
  // disagree: a receive no member sends, an entry beyond its members).
  absl::Status Run(std::uint64_t grant, std::vector<ModelCompletion>* completed,
                   std::vector<Ended>* ended);
  // The time of the earliest step due, or NetworkModel::kNoEvent.
  std::uint64_t NextDueNs() const;
  // Takes the replay's completions out of (*completed)[from..] (their
  // receivers move on), keeping the others in order; for a caller that
  // advances the model itself. *error as Run's.
  void TakeArrivals(std::vector<ModelCompletion>* completed, std::size_t from,
                    std::vector<Ended>* ended, absl::Status* error);

  // Transits not ended yet.
  std::size_t held() const { return open_transits_.size(); }
  // True while a collective that some rank has reached lacks a member's
  // entry: whoever waits on that member ends no earlier than the member's
  // t_send (at or after the next Grant) plus MinRankToRankNs().
  bool AwaitsEntries() const { return incomplete_ > 0; }
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
  // A collective some member has reached: the members so far and the
  // arrivals of the messages sent in it.
  struct Open {
    std::uint32_t expected = 0;
    std::vector<Member> members;
    absl::flat_hash_map<std::uint32_t, std::uint32_t> position;  // rank -> members index
    absl::flat_hash_map<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>, std::uint64_t>
        arrivals;  // (sender, receiver, label) -> arrival
    std::uint32_t done = 0;
    std::uint32_t active = 0;  // its steps due and messages in flight
  };
  // A member's step due: its sends go at the key's time.
  struct Due {
    Key key;
    std::uint32_t member = 0;
  };
  // A message of the replay in the model.
  struct Flight {
    Key key;
    std::uint32_t sender = 0;
    std::uint32_t receiver = 0;
    std::int32_t label = 0;
  };
  // Orders ranks (DueTimeKey::source) by client id.
  struct ByClientId {
    const std::vector<Rank>* ranks = nullptr;
    bool operator()(std::uint64_t a, std::uint64_t b) const {
      return (*ranks)[a].id < (*ranks)[b].id;
    }
  };

  // The index of client id `id`, interned on first sight.
  absl::StatusOr<std::uint32_t> RankOf(const std::string& id);
  // Rank `r`'s head entry joins its collective, and every rank whose next
  // entry becomes its head meanwhile joins its own.
  void Join(std::uint32_t r, std::vector<Ended>* ended, absl::Status* error);
  // Member `m` of `c` takes its step's messages if they have all come; its
  // next step is then due, or it has finished (appended to *joins if it has
  // a next entry).
  void TryTake(Open& c, std::uint32_t m, std::vector<std::uint32_t>* joins,
               std::vector<Ended>* ended);
  void PushDue(const Key& key, Open& c, std::uint64_t t, std::uint32_t m);
  // Submits the messages of every step due at NextDueNs(), at that time.
  void RunDue(std::vector<ModelCompletion>* completed, std::vector<Ended>* ended,
              absl::Status* error);
  // True if `completion` is of one of the replay's messages, which it takes.
  bool Arrived(const ModelCompletion& completion, std::vector<Ended>* ended,
               absl::Status* error);
  // Join for each of `joins`.
  void JoinAll(const std::vector<std::uint32_t>& joins, std::vector<Ended>* ended,
               absl::Status* error);
  // Ends the head entry of rank `r` at `t`; the transit, if its last.
  void Finish(std::uint32_t r, std::uint64_t t, bool dropped, std::vector<Ended>* ended);
  // Drops collective `key`: every member that has not finished it.
  void DropOpen(const Key& key, std::vector<Ended>* ended);
  // After `c` (collective `key`) changed: forgets it once every member has
  // finished it; drops it, with an error, once every member is in and
  // waits for a message no member sends (nothing due, nothing in flight).
  void Settle(const Key& key, Open& c, std::vector<Ended>* ended, absl::Status* error);
  using DueQueue = platform::DueTimeQueue<Due, ByClientId>;
  // The first message id a daemon hands out (docs/protocol.md, "Message
  // ids": session numbers start at 1).
  static constexpr std::uint64_t kFirstDaemonId = std::uint64_t{1} << 32;

  NetworkModel& model_;
  Resolve resolve_;
  std::vector<Rank> ranks_;
  absl::flat_hash_map<std::string, std::uint32_t> rank_of_;
  absl::flat_hash_map<Key, Open> open_;
  std::size_t incomplete_ = 0;  // collectives in open_ short of members
  absl::flat_hash_map<std::uint64_t, OpenTransit> open_transits_;
  DueQueue due_{ByClientId{&ranks_}};
  std::uint64_t due_sequence_ = 0;
  absl::flat_hash_map<std::uint64_t, Flight> in_flight_;  // by model message id
  std::uint64_t next_message_id_ = 1;                     // below 2^32
  bool shared_endpoint_ = false;  // two ranks on one endpoint
  absl::flat_hash_map<NodeId, std::uint32_t> rank_on_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_LIVE_COLLECTIVES_H_
