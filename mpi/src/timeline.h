// Timeline: one rank's MPI calls on its virtual clock, for `trestle mpirun
// --timeline` (docs/mpi.md, "Timeline"). It writes Chrome trace events
// (the JSON that Perfetto and chrome://tracing open), one object per line,
// which `trestle mpirun` merges, every rank's, into one file:
//  - a span ("ph":"X") per outermost wrapped call, named after it, from its
//    start to its end in virtual time; its args: the communicator it
//    used (its id, hex: 0x1 is MPI_COMM_WORLD), the one peer (world rank)
//    of the messages it sent (sending none: of those it took in) if they
//    had one, what it mirrored out and took in;
//  - a "compute" span over the virtual time between two calls, if any;
//  - an arrow (flow events "s" and "f") per mirrored message: from the call
//    that sent it, at its send time, to the call during which the receiving
//    rank took it in, at its modelled delivery (clamped to that call). Both
//    ends name the message by the same id, made from its MirrorHeader and
//    receiver, below 2^53 (exact in a JSON reader's doubles).
// Times are ns, written as µs with three decimals (the format's unit).
//
// Events are buffered and written in blocks of about 64 KiB, and at the
// start of a call once `flush_every` of wall time has passed since the last
// write (100 ms: a rank killed, by MPI_Abort elsewhere or a signal, loses
// at most that much); Flush() writes what is held (before the process
// ends on an error). Not thread-safe: one thread at a time, as the rank's
// TrestleLink.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "mirror_header.h"

namespace trestle::mpi {

class Timeline {
 public:
  // DIR/rank-K.json, created or truncated; an error names the file.
  static absl::StatusOr<std::unique_ptr<Timeline>> Open(const std::string& dir, int world_rank);
  // Writes to `out` (owned: closed by the destructor, after a Flush).
  Timeline(int world_rank, std::FILE* out,
           std::chrono::milliseconds flush_every = std::chrono::milliseconds(100));
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Call `name` (a string that outlives the timeline) starts or ends at
  // virtual time `t`. Calls do not nest: CallStarts again before CallEnds
  // is a bug in the caller (CHECK).
  void CallStarts(const char* name, std::uint64_t t);
  void CallEnds(std::uint64_t t);
  bool in_call() const { return call_ != nullptr; }
  // The mirror `h` goes to world rank `dst_world` at `t` (during a call),
  // or arrives from h.src_world at this rank, modelled delivery `t`.
  // Batches of collectives (kCollectivesEnd) have no arrow.
  void Sent(const MirrorHeader& h, int dst_world, std::uint64_t t);
  void Arrived(const MirrorHeader& h, std::uint64_t t);
  // The call in progress uses communicator `comm_id` (the first one noted
  // is its span's; outside a call: nothing).
  void NoteComm(std::uint64_t comm_id);

  void Flush();

  // The flow id both ends of the mirror `h` to `dst_world` write.
  static std::uint64_t FlowId(const MirrorHeader& h, int dst_world);

 private:
  // Appends `"ts":T` (µs, three decimals) to the buffer.
  void AppendTime(const char* key, std::uint64_t ns);
  // Starts an event of phase `ph` on this rank's track; the caller ends it.
  void BeginEvent(char ph, std::uint64_t t);
  void EndEvent();
  static void NotePeer(int* peer, int world_rank);

  const int world_rank_;
  std::FILE* out_;
  const std::chrono::milliseconds flush_every_;
  std::chrono::steady_clock::time_point flushed_;
  std::string buffer_;
  // The call in progress (null: none), its start and what it mirrored.
  const char* call_ = nullptr;
  std::uint64_t call_start_ = 0;
  std::uint64_t bytes_out_ = 0, messages_out_ = 0, messages_in_ = 0;
  bool has_comm_ = false;
  std::uint64_t comm_ = 0;
  // The peers of the messages sent and taken in: kSeveralPeers once a
  // second one shows up.
  int peer_out_ = kNoPeer, peer_in_ = kNoPeer;
  static constexpr int kNoPeer = -1, kSeveralPeers = -2;
  // The end of the last call (the start of the compute after it).
  std::uint64_t last_end_ = 0;
  // Arrivals waiting for their call's end (their arrows' ends).
  struct Arrival {
    std::uint64_t id, t_deliver;
    int src_world;
  };
  std::vector<Arrival> arrivals_;
};

}  // namespace trestle::mpi
