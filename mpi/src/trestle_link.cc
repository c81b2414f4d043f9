#include "trestle_link.h"

#include "absl/strings/str_cat.h"
#include "timeline.h"
#include "trestle/status.h"

namespace trestle::mpi {

TrestleLink::TrestleLink(const LayerOptions& options, int world_rank, int world_size,
                         MirrorInbox& inbox)
    : inbox_(inbox), world_rank_(world_rank) {
  ids_.reserve(world_size);
  for (int k = 0; k < world_size; ++k) ids_.push_back(absl::StrCat(options.id_prefix, k));
  ClientOptions client;
  client.daemon = options.daemon;
  client.client_id = ids_[world_rank];
  client.lockstep = true;
  client.shared_connection = true;
  client.connect_timeout = options.connect_timeout;
  // Mirrors are 32 bytes: never worth a round trip to a Redis store.
  client.payload_by_key = false;
  client_ = std::make_unique<AppClient>(std::move(client));
}

TrestleLink::~TrestleLink() = default;

absl::Status TrestleLink::Connect() {
  // A rejected send (or a lost session) comes asynchronously: the next wait
  // reports it, so no mirror is ever silently missing.
  client_->OnError([this](const absl::Status& error) {
    if (error_.ok()) error_ = error;
  });
  absl::Status s = client_->Connect();
  if (!s.ok()) {
    return absl::Status(s.code(), absl::StrCat("cannot join trestled at ",
                                               client_->options().daemon, " as ",
                                               client_->client_id(), ": ", s.message()));
  }
  return s;
}

absl::Status TrestleLink::Close() { return client_->Close(std::chrono::seconds(10)); }

absl::Status TrestleLink::Send(int dst_world, const MirrorHeader& header) {
  header.EncodeTo(&header_bytes_);
  SendOptions options;
  options.model_size = header.bytes;
  options.notify_drop = true;
  options.timeout = std::chrono::seconds(60);
  absl::StatusOr<std::uint64_t> id = client_->Send(ids_[dst_world], header_bytes_, options);
  if (!id.ok()) {
    return absl::Status(id.status().code(), absl::StrCat("mirroring a message to ",
                                                         ids_[dst_world], ": ",
                                                         id.status().message()));
  }
  if (timeline_ != nullptr) timeline_->Sent(header, dst_world, client_->Now());
  return absl::OkStatus();
}

absl::Status TrestleLink::SendCollectives(std::uint32_t number, std::string_view collectives) {
  MirrorHeader h;
  h.kind = MirrorHeader::Kind::kCollectivesEnd;
  h.src_world = world_rank_;
  h.number = number;
  h.EncodeTo(&header_bytes_);
  SendOptions options;
  options.model_size = 0;
  options.notify_drop = true;
  options.collectives = collectives;
  options.timeout = std::chrono::seconds(60);
  absl::StatusOr<std::uint64_t> id = client_->Send(ids_[world_rank_], header_bytes_, options);
  if (!id.ok()) {
    return absl::Status(id.status().code(), absl::StrCat("sending a batch of collectives: ",
                                                         id.status().message()));
  }
  batch_ids_.insert(*id);
  return absl::OkStatus();
}

absl::Status TrestleLink::TakeIn(const Message& m) {
  if (m.dropped && batch_ids_.contains(m.id)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the simulator did not replay this rank's collectives (message ", m.id,
        "): only trestle-sim fabric replays them; run with --mirror steps "
        "(TRESTLE_MPI_MIRROR=steps), or see the simulator's log for the reason"));
  }
  if (m.dropped) {
    return absl::DataLossError(absl::StrCat(
        "the network model dropped the mirror of a message from ", client_->client_id(),
        " (message ", m.id, "): MPI messages are never lost; check that every rank has an "
        "endpoint (the simulator's --map, the topology's size) and that no loss rate is set"));
  }
  batch_ids_.erase(m.id);
  std::optional<MirrorHeader> header = MirrorHeader::Decode(m.payload);
  if (!header) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a message from ", m.src, " of ", m.payload.size(),
        " bytes is not an MPI mirror: only the ranks of this run may send to ",
        client_->client_id()));
  }
  inbox_.TakeIn(*header, m.t_deliver);
  if (timeline_ != nullptr) timeline_->Arrived(*header, m.t_deliver);
  return absl::OkStatus();
}

absl::StatusOr<TrestleLink::Step> TrestleLink::WaitStep(std::chrono::milliseconds slice) {
  absl::StatusOr<Message> m = client_->Receive(slice);
  if (!error_.ok()) return error_;
  if (m.ok()) {
    if (absl::Status s = TakeIn(*m); !s.ok()) return s;
    return Step::kTook;
  }
  if (m.status().code() == absl::StatusCode::kDeadlineExceeded) return Step::kNothing;
  if (IsQuiescent(m.status())) return Step::kQuiescent;
  return m.status();
}

absl::Status TrestleLink::SyncToNow(const std::function<void()>& poll) {
  for (;;) {
    absl::StatusOr<std::optional<Message>> m =
        client_->ReceiveUntil(client_->Now(), std::chrono::milliseconds(1));
    if (m.ok()) {
      if (!m->has_value()) return absl::OkStatus();  // woken at Now(): nothing more by then
      if (absl::Status s = TakeIn(**m); !s.ok()) return s;
      continue;
    }
    if (m.status().code() != absl::StatusCode::kDeadlineExceeded) return m.status();
    if (poll) poll();
  }
}

absl::Status TrestleLink::ReportBlocked() {
  // A receive that cannot wait reports the rank blocked at once and returns;
  // what was delivered already is taken in first (it comes before anything
  // the rank waits for).
  for (;;) {
    absl::StatusOr<Message> m = client_->Receive(std::chrono::milliseconds(0));
    if (!m.ok()) {
      const absl::StatusCode code = m.status().code();
      return code == absl::StatusCode::kDeadlineExceeded || IsQuiescent(m.status())
                 ? absl::OkStatus()
                 : m.status();
    }
    if (absl::Status s = TakeIn(*m); !s.ok()) return s;
  }
}

}  // namespace trestle::mpi
