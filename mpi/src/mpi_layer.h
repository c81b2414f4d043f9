// MpiLayer: libtrestle-mpi's state in one rank, from MPI_Init to
// MPI_Finalize, and the waits every part of it shares.
//
// The layer's contract (docs/mpi.md, "How it works"): the real MPI moves the
// data; every message is mirrored through trestled, with its real size, and
// the rank's virtual clock (its lockstep app's Now()) follows the model.
// Waits are of three kinds, and only three, so that no rank ever holds the
// run's virtual time back while it waits, in wall time, for another rank
// that needs that time to move:
//  - Block: the rank waits for mirrors as a blocked app (TrestleLink::
//    WaitStep), polling real progress between them;
//  - SyncToNow: the rank takes what arrived by its own clock (tests);
//  - a real wait (PMPI_Wait and kin) only for what completes with no
//    rank's virtual progress: data whose mirror arrived (its real send was
//    posted first), a collective every member has posted, or a send the
//    layer copied (never waited for: DetachedRequests).
// A communicator's creation waits in real time inside a BlockedWindow. A
// collective mirrored whole waits in real time for its real collective
// (WaitReal, BlockingReal); after 1 ms the batch goes and, while any batch
// is out, the rank counts as blocked.
//
// Threading: MPI_THREAD_FUNNELED at most; every MPI call from the thread
// that called MPI_Init (others end the run with an error). Get() is null
// before MPI_Init and after MPI_Finalize; the wrappers then call the real
// MPI directly.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "collective_batch.h"
#include "comm_registry.h"
#include "compute_model.h"
#include "detached_requests.h"
#include "layer_options.h"
#include "mirror_inbox.h"
#include "program_code.h"
#include "receive_matcher.h"
#include "request_table.h"
#include "timeline.h"
#include "trestle_link.h"

namespace trestle::mpi {

class PointToPoint;
class RequestWaits;
class CollectiveRunner;
class CommCreation;
class FileIo;

// Prints "libtrestle-mpi: rank K: MESSAGE" and aborts the MPI job.
[[noreturn]] void Fatal(absl::string_view message);

class MpiLayer {
 public:
  // After PMPI_Init(_thread): reads the options, registers MPI_COMM_WORLD
  // and MPI_COMM_SELF, joins trestled. Fatal on any error.
  static void Start();
  // Before PMPI_Finalize: leaves the run, finishes the detached requests.
  static void Finish();
  static MpiLayer* Get() { return instance_; }

  ~MpiLayer();

  const LayerOptions& options() const { return options_; }
  int world_rank() const { return world_rank_; }
  TrestleLink& link() { return *link_; }
  MirrorInbox& inbox() { return inbox_; }
  ReceiveMatcher& matcher() { return matcher_; }
  CommRegistry& comms() { return comms_; }
  RequestTable& requests() { return requests_; }
  DetachedRequests& detached() { return detached_; }
  PointToPoint& p2p() { return *p2p_; }
  RequestWaits& waits() { return *waits_; }
  CollectiveRunner& collectives() { return *collectives_; }
  CommCreation& creation() { return *creation_; }
  FileIo& files() { return *files_; }

  // The communicator's state; Fatal for one the layer does not model.
  CommState& Comm(MPI_Comm comm);

  // Resolves the clock (ResolveClock), then waits as a blocked app until
  // `done()`. `poll`, if set, drives the current operation's real requests
  // and says whether they still need this rank's progress (slices are then
  // 1 ms, else 100 ms).
  void Block(const std::function<bool()>& done, const std::function<bool()>& poll = nullptr);
  // Resolves the clock, then takes every mirror delivered at or before Now().
  void SyncToNow();
  // A test found nothing: the clock moves by options().poll_ns.
  void ChargePoll() {
    ResolveClock();
    link_->Advance(options_.poll_ns);
  }
  // The rank's virtual time, resolved.
  std::uint64_t Now() {
    ResolveClock();
    return link_->Now();
  }

  // Collectives mirrored whole (options().mirror; docs/mpi.md, "Mirroring
  // collectives"): the rank's clock is unresolved while collectives it took
  // part in have not ended in the simulator's replay. ResolveClock sends
  // what the batch holds and waits, as a blocked app, until every batch has
  // ended (the clock then moves to the end of the last), then charges the
  // compute held back meanwhile. Every use of the clock resolves it first.
  bool MirrorsCollectives() const { return options_.mirror == LayerOptions::Mirror::kCollectives; }
  // `poll`, if set, drives a real request meanwhile (as Block's).
  void ResolveClock(const std::function<bool()>& poll = nullptr);
  // Adds this rank's part of collective `instance` of `c` to the batch.
  void MirrorCollective(const CommState& c, std::uint32_t instance, const CollectivePlan& plan);
  // Waits for the real collective `*real` whose mirror went whole: polled
  // for a while; if it lasts, the batch goes and, while any batch is out,
  // the rank counts as blocked (others may need its part, or virtual time
  // to move past its stale clock).
  int WaitReal(MPI_Request* real);
  // Whether a collective mirrored whole may make its real call blocking
  // (Open MPI's progress hook is in: BlockingReal).
  bool BlocksInRealCalls() const { return MirrorsCollectives() && progress_hook_; }
  // Makes the blocking real call `call`. Should it wait over 1 ms, Open
  // MPI's progress loop has the layer do what WaitReal does meanwhile: the
  // batch goes, and the rank counts as blocked while any batch is out.
  int BlockingReal(absl::FunctionRef<int()> call);

  void MirrorPointToPoint(CommState& c, int dest, int tag, std::uint64_t bytes);
  void MirrorStep(const CommState& c, int peer, std::uint32_t instance, std::int32_t label,
                  std::uint64_t bytes);

  // gettimeofday: whether a call from `caller` gets virtual time (the
  // program's own code, on the main thread, unless switched off), and the
  // time it gets (the compute since the last MPI call charged first).
  bool ProgramAsksTime(const void* caller) const {
    return options_.virtual_gettimeofday && std::this_thread::get_id() == main_thread_ &&
           program_code_.Contains(caller);
  }
  std::uint64_t ClockForProgram();
  // The program reads the clock (MPI_Wtime, its gettimeofday): Now(), but
  // a third reading in a row at the same time, with no other wrapped call
  // (CallScope) between, costs options().poll_ns first, as a test that
  // finds nothing, so that a loop waiting for the clock to move ends
  // (STREAM's checktick, under --compute none). Two readings around code
  // that took no virtual time still agree.
  std::uint64_t ReadClock();

  // Around every wrapped MPI call (CallScope). With a timeline
  // (options().timeline_dir), the outermost call's span is noted, its ends
  // at the clock resolved: under --mirror collectives each call then waits
  // for the replay of the collectives before it (slower in wall time).
  void CallStarts(const char* name);
  void CallEnds();
  const char* current_call() const { return current_call_; }
  // Writes out what the timeline holds, if there is one (before Fatal).
  void FlushTimeline();

 private:
  MpiLayer(LayerOptions options, int world_rank, int world_size);
  // Open MPI's progress callback (ProgressHook) during BlockingReal.
  static int OnProgress();
  // Real progress between mirrors: true while something needs it.
  bool PollReal(const std::function<bool()>& poll);
  // Block without resolving the clock.
  void Wait(const std::function<bool()>& done, const std::function<bool()>& poll);
  // Collectives sent or held whose end has not come.
  bool Unresolved() const { return !batch_->empty() || batch_->sent() != inbox_.batches_ended(); }
  // Sends what the batch holds, if anything.
  void SendBatch();
  // Compute: onto the clock, or held back while it is unresolved.
  void Charge(std::uint64_t ns);

  static MpiLayer* instance_;

  LayerOptions options_;
  const int world_rank_;
  const std::thread::id main_thread_;
  MirrorInbox inbox_;
  ReceiveMatcher matcher_{inbox_};
  CommRegistry comms_;
  RequestTable requests_;
  DetachedRequests detached_;
  ComputeModel compute_;
  const ProgramCode program_code_;
  std::unique_ptr<TrestleLink> link_;
  std::unique_ptr<CollectiveBatch> batch_;
  std::string batch_bytes_;  // reused for every batch sent
  std::unique_ptr<PointToPoint> p2p_;
  std::unique_ptr<RequestWaits> waits_;
  std::unique_ptr<CollectiveRunner> collectives_;
  std::unique_ptr<CommCreation> creation_;
  std::unique_ptr<FileIo> files_;
  const char* current_call_ = "MPI_Init";
  int call_depth_ = 0;  // wrapped calls in progress (one inside another)
  std::unique_ptr<Timeline> timeline_;
  // ReadClock: the last time read, how many readings in a row gave it, and
  // the calls made (CallStarts) then and now.
  std::uint64_t last_reading_ = 0;
  int same_readings_ = 0;
  std::uint64_t calls_at_last_reading_ = 0;
  std::uint64_t calls_ = 0;
  bool progress_hook_ = false;
  // BlockingReal: since when, and whether the batch went.
  bool in_real_ = false;
  bool sent_in_real_ = false;
  std::chrono::steady_clock::time_point real_since_;
};

// RAII around a wrapped call: charges the compute since the last call,
// checks the thread, names the call in errors. layer() is null when the
// layer is not running (the wrapper then calls the real MPI).
class CallScope {
 public:
  explicit CallScope(const char* name) : layer_(MpiLayer::Get()) {
    if (layer_ != nullptr) layer_->CallStarts(name);
  }
  ~CallScope() {
    if (layer_ != nullptr) layer_->CallEnds();
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  MpiLayer* layer() const { return layer_; }

 private:
  MpiLayer* layer_;
};

}  // namespace trestle::mpi
