#include "mpi_layer.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "collective_runner.h"
#include "comm_creation.h"
#include "file_io.h"
#include "mirror_choice.h"
#include "point_to_point.h"
#include "progress_hook.h"
#include "request_waits.h"

namespace trestle::mpi {
namespace {

constexpr std::chrono::milliseconds kBusySlice{1};
constexpr std::chrono::milliseconds kIdleSlice{100};
// How long a real collective whose mirror went whole is waited for before the
// rank sends its batch and counts as blocked.
constexpr std::chrono::microseconds kRealSpin{1000};

}  // namespace

MpiLayer* MpiLayer::instance_ = nullptr;

void Fatal(absl::string_view message) {
  int rank = -1;
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (initialized) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // What the timeline holds shows what led here.
  if (MpiLayer* layer = MpiLayer::Get(); layer != nullptr) layer->FlushTimeline();
  std::fprintf(stderr, "libtrestle-mpi: rank %d: %.*s\n", rank, static_cast<int>(message.size()),
               message.data());
  std::fflush(stderr);
  if (initialized) PMPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

MpiLayer::MpiLayer(LayerOptions options, int world_rank, int world_size)
    : options_(std::move(options)),
      world_rank_(world_rank),
      main_thread_(std::this_thread::get_id()),
      compute_(options_.compute, options_.compute_scale),
      program_code_(ProgramCode::Load()),
      link_(std::make_unique<TrestleLink>(options_, world_rank, world_size, inbox_)),
      batch_(std::make_unique<CollectiveBatch>(link_->ids(), options_.reduce_bytes_per_second)),
      p2p_(std::make_unique<PointToPoint>(*this)),
      waits_(std::make_unique<RequestWaits>(*this)),
      collectives_(std::make_unique<CollectiveRunner>(*this)),
      creation_(std::make_unique<CommCreation>(*this)),
      files_(std::make_unique<FileIo>(*this)) {}

MpiLayer::~MpiLayer() = default;

void MpiLayer::Start() {
  absl::StatusOr<LayerOptions> options = LayerOptions::FromEnvironment(std::getenv);
  if (!options.ok()) Fatal(options.status().message());
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  auto* layer = new MpiLayer(*std::move(options), rank, size);
  // Shadows of the predefined communicators, before the rank joins the run:
  // nothing holds virtual time back yet.
  MPI_Comm world_shadow, self_shadow;
  PMPI_Comm_dup(MPI_COMM_WORLD, &world_shadow);
  PMPI_Comm_dup(MPI_COMM_SELF, &self_shadow);
  layer->comms_.Add(MPI_COMM_WORLD, world_shadow, CommRegistry::kWorldId);
  layer->comms_.Add(MPI_COMM_SELF, self_shadow, CommRegistry::ChildId(2, 0, rank));
  if (!layer->options_.timeline_dir.empty()) {
    absl::StatusOr<std::unique_ptr<Timeline>> t =
        Timeline::Open(layer->options_.timeline_dir, rank);
    if (!t.ok()) Fatal(absl::StrCat("TRESTLE_MPI_TIMELINE: ", t.status().message()));
    layer->timeline_ = *std::move(t);
    layer->link_->set_timeline(layer->timeline_.get());
  }
  if (absl::Status s = layer->link_->Connect(); !s.ok()) Fatal(s.message());
  absl::StatusOr<LayerOptions::Mirror> mirror =
      ChooseMirror(layer->options_.mirror, layer->link_->simulators(), layer->options_.daemon);
  if (!mirror.ok()) Fatal(mirror.status().message());
  layer->options_.mirror = *mirror;
  if (layer->MirrorsCollectives()) layer->progress_hook_ = ProgressHook::Register(&OnProgress);
  instance_ = layer;
}

void MpiLayer::Finish() {
  MpiLayer* layer = instance_;
  if (layer == nullptr) return;
  // Every collective ended first (others' replays need this rank's part);
  // then leave the run: the sends still finishing may wait for ranks that
  // need virtual time to move to take them.
  layer->ResolveClock();
  if (layer->timeline_) {  // MPI_Finalize's span ends as the rank leaves
    layer->timeline_->CallEnds(layer->link_->Now());
    layer->link_->set_timeline(nullptr);
    layer->timeline_.reset();
  }
  if (absl::Status s = layer->link_->Close(); !s.ok()) {
    std::fprintf(stderr, "libtrestle-mpi: rank %d: leaving trestled: %s\n", layer->world_rank_,
                 std::string(s.message()).c_str());
  }
  instance_ = nullptr;
  if (layer->progress_hook_) ProgressHook::Unregister(&OnProgress);
  layer->requests_.ForEachSend([&](MPI_Request request, const std::shared_ptr<SendCopy>& copy) {
    layer->detached_.Add(request, copy);
  });
  layer->detached_.WaitAll();
  layer->comms_.Clear();
  delete layer;
}

CommState& MpiLayer::Comm(MPI_Comm comm) {
  CommState* c = comms_.Find(comm);
  if (c == nullptr) {
    Fatal(absl::StrCat(current_call_, ": a communicator libtrestle-mpi does not model (made by "
                                      "a call it does not model, e.g. an intercommunicator; "
                                      "docs/mpi.md)"));
  }
  if (timeline_) timeline_->NoteComm(c->id);
  return *c;
}

bool MpiLayer::PollReal(const std::function<bool()>& poll) {
  bool busy = detached_.Progress();
  if (poll && poll()) busy = true;
  return busy;
}

void MpiLayer::Block(const std::function<bool()>& done, const std::function<bool()>& poll) {
  ResolveClock();
  Wait(done, poll);
}

void MpiLayer::Wait(const std::function<bool()>& done, const std::function<bool()>& poll) {
  while (!done()) {
    const bool busy = PollReal(poll);
    if (done()) return;
    absl::StatusOr<TrestleLink::Step> step = link_->WaitStep(busy ? kBusySlice : kIdleSlice);
    if (!step.ok()) Fatal(absl::StrCat(current_call_, ": ", step.status().message()));
    // Waiting with nothing to do: what the timeline holds is written now,
    // so that it shows what led here should the rank be killed meanwhile.
    if (*step == TrestleLink::Step::kNothing && timeline_) timeline_->Flush();
    if (*step == TrestleLink::Step::kQuiescent) {
      Fatal(absl::StrCat(
          current_call_, " waits for a message at ", link_->Now(),
          " ns, but every rank of the run waits and none is in flight: the program deadlocks "
          "(or sends to a rank that has finished)"));
    }
  }
}

void MpiLayer::ResolveClock(const std::function<bool()>& poll) {
  if (!Unresolved()) {
    link_->Advance(batch_->TakeCompute());
    return;
  }
  SendBatch();
  Wait([this] { return batch_->sent() == inbox_.batches_ended(); }, poll);
  link_->Advance(batch_->TakeCompute());
}

void MpiLayer::SendBatch() {
  if (batch_->empty()) return;
  const std::uint32_t number = batch_->sent();
  batch_->Take(&batch_bytes_);
  if (absl::Status s = link_->SendCollectives(number, batch_bytes_); !s.ok()) {
    Fatal(absl::StrCat(current_call_, ": ", s.message()));
  }
}

void MpiLayer::Charge(std::uint64_t ns) {
  if (Unresolved()) {
    batch_->Charge(ns);
  } else {
    link_->Advance(batch_->TakeCompute() + ns);
  }
}

void MpiLayer::MirrorCollective(const CommState& c, std::uint32_t instance,
                                const CollectivePlan& plan) {
  batch_->Add(c.id, c.world_of, instance, plan);
  if (batch_->full()) SendBatch();
}

int MpiLayer::WaitReal(MPI_Request* real) {
  int done = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const int rc = PMPI_Test(real, &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || done) return rc;
    if (std::chrono::steady_clock::now() - start > kRealSpin) break;
    std::this_thread::yield();
  }
  // It lasts: a member may wait for this rank's part, or for virtual time
  // to move. The batch goes, and while any batch is out the rank counts as
  // blocked (a receive that does not wait in wall time), so time can pass
  // its stale clock: it sends nothing but collectives (which go at its
  // clock in the daemon: docs/protocol.md, "Collectives") before it has
  // resolved its clock by deliveries.
  SendBatch();
  for (;;) {
    const int rc = PMPI_Test(real, &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || done) return rc;
    (void)detached_.Progress();
    if (Unresolved()) {
      absl::StatusOr<TrestleLink::Step> step = link_->WaitStep(std::chrono::milliseconds(0));
      if (!step.ok()) Fatal(absl::StrCat(current_call_, ": ", step.status().message()));
      if (*step == TrestleLink::Step::kTook) continue;
    }
    std::this_thread::yield();
  }
}

int MpiLayer::BlockingReal(absl::FunctionRef<int()> call) {
  in_real_ = true;
  sent_in_real_ = false;
  real_since_ = std::chrono::steady_clock::now();
  const int rc = call();
  in_real_ = false;
  return rc;
}

int MpiLayer::OnProgress() {
  MpiLayer* layer = instance_;
  if (layer == nullptr || !layer->in_real_ ||
      std::chrono::steady_clock::now() - layer->real_since_ < kRealSpin) {
    return 0;
  }
  // As WaitReal, without MPI calls of its own (this runs inside MPI).
  if (!layer->sent_in_real_) {
    layer->SendBatch();
    layer->sent_in_real_ = true;
  }
  if (layer->Unresolved()) {
    absl::StatusOr<TrestleLink::Step> step =
        layer->link_->WaitStep(std::chrono::milliseconds(0));
    if (!step.ok()) Fatal(absl::StrCat(layer->current_call_, ": ", step.status().message()));
  }
  return 0;
}

void MpiLayer::SyncToNow() {
  ResolveClock();
  absl::Status s = link_->SyncToNow([this] { (void)PollReal(nullptr); });
  if (!s.ok()) Fatal(absl::StrCat(current_call_, ": ", s.message()));
}

void MpiLayer::MirrorPointToPoint(CommState& c, int dest, int tag, std::uint64_t bytes) {
  ResolveClock();
  MirrorHeader h;
  h.kind = MirrorHeader::Kind::kPointToPoint;
  h.src_world = world_rank_;
  h.comm_id = c.id;
  h.label = tag;
  h.number = c.sent_to[dest]++;
  h.bytes = bytes;
  if (absl::Status s = link_->Send(c.world_of[dest], h); !s.ok()) {
    Fatal(absl::StrCat(current_call_, ": ", s.message()));
  }
}

void MpiLayer::MirrorStep(const CommState& c, int peer, std::uint32_t instance,
                          std::int32_t label, std::uint64_t bytes) {
  ResolveClock();
  MirrorHeader h;
  h.kind = MirrorHeader::Kind::kCollective;
  h.src_world = world_rank_;
  h.comm_id = c.id;
  h.label = label;
  h.number = instance;
  h.bytes = bytes;
  if (absl::Status s = link_->Send(c.world_of[peer], h); !s.ok()) {
    Fatal(absl::StrCat(current_call_, ": ", s.message()));
  }
}

void MpiLayer::CallStarts(const char* name) {
  if (std::this_thread::get_id() != main_thread_) {
    Fatal(absl::StrCat(name, " from a thread other than the one that called MPI_Init: "
                             "libtrestle-mpi models MPI_THREAD_FUNNELED at most"));
  }
  current_call_ = name;
  ++calls_;
  Charge(compute_.CallStarts());
  if (call_depth_++ == 0 && timeline_) timeline_->CallStarts(name, Now());
}

void MpiLayer::CallEnds() {
  if (--call_depth_ == 0 && timeline_) timeline_->CallEnds(Now());
  compute_.CallEnds();
}

void MpiLayer::FlushTimeline() {
  if (!timeline_) return;
  if (timeline_->in_call()) timeline_->CallEnds(link_->Now());  // where it ends, unresolved
  timeline_->Flush();
}

std::uint64_t MpiLayer::ClockForProgram() {
  Charge(compute_.CallStarts());
  compute_.CallEnds();
  return ReadClock();
}

std::uint64_t MpiLayer::ReadClock() {
  std::uint64_t now = Now();
  // In a row: no MPI call since the last reading but this one's MPI_Wtime.
  const bool in_a_row = calls_ - calls_at_last_reading_ <= 1;
  if (now != last_reading_ || !in_a_row) {
    same_readings_ = 1;
  } else if (++same_readings_ > 2) {
    ChargePoll();
    now = Now();
    same_readings_ = 1;
  }
  last_reading_ = now;
  calls_at_last_reading_ = calls_;
  return now;
}

}  // namespace trestle::mpi
