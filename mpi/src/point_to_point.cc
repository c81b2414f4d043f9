#include "point_to_point.h"

#include "absl/strings/str_cat.h"

namespace trestle::mpi {

int PointToPoint::Send(const void* buffer, int count, MPI_Datatype type, int dest, int tag,
                       MPI_Comm comm, MPI_Request* request) {
  if (dest == MPI_PROC_NULL) {
    return request == nullptr ? PMPI_Send(buffer, count, type, dest, tag, comm)
                              : PMPI_Isend(buffer, count, type, dest, tag, comm, request);
  }
  CommState& c = layer_.Comm(comm);
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  std::shared_ptr<SendCopy> copy = SendCopy::Of(buffer, count, type);
  MPI_Request real = MPI_REQUEST_NULL;
  // The real send first: by the time the mirror can be delivered, the real
  // message is on its way.
  const int rc = PMPI_Isend(copy->address(), count, type, dest, tag, comm, &real);
  if (rc != MPI_SUCCESS) return rc;
  layer_.MirrorPointToPoint(c, dest, tag,
                            static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(type_size));
  if (request == nullptr) {
    layer_.detached().Add(real, std::move(copy));
  } else {
    layer_.requests().AddSend(real, std::move(copy));
    *request = real;
  }
  return MPI_SUCCESS;
}

std::unique_ptr<RealReceive> PointToPoint::Follow(const CommState& c, int source, int tag) {
  auto op = std::make_unique<RealReceive>();
  op->comm_id = c.id;
  op->comm = &c;
  op->src_world = source == MPI_ANY_SOURCE ? ReceiveOp::kAny : c.world_of[source];
  op->tag = tag == MPI_ANY_TAG ? ReceiveOp::kAny : tag;
  return op;
}

int PointToPoint::Recv(void* buffer, int count, MPI_Datatype type, int source, int tag,
                       MPI_Comm comm, MPI_Request* request, MPI_Status* status) {
  if (source == MPI_PROC_NULL) {
    return request == nullptr ? PMPI_Recv(buffer, count, type, source, tag, comm, status)
                              : PMPI_Irecv(buffer, count, type, source, tag, comm, request);
  }
  CommState& c = layer_.Comm(comm);
  if (request == nullptr && (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)) {
    DecideByMirrors(c, &source, &tag);
  }
  MPI_Request real = MPI_REQUEST_NULL;
  const int rc = PMPI_Irecv(buffer, count, type, source, tag, comm, &real);
  if (rc != MPI_SUCCESS) return rc;
  std::unique_ptr<RealReceive> op = Follow(c, source, tag);
  op->real = real;
  layer_.matcher().Post(op.get());
  if (request != nullptr) {
    *request = real;
    layer_.requests().AddReceive(real, std::move(op));
    return MPI_SUCCESS;
  }
  WaitReady(*op);
  return PMPI_Wait(&op->real, status);
}

bool PointToPoint::DecideByMirrors(const CommState& c, int* source, int* tag, bool wait) {
  std::unique_ptr<RealReceive> pattern = Follow(c, *source, *tag);
  ReceiveMatcher& matcher = layer_.matcher();
  if (!matcher.MirrorsDecide(*pattern)) return false;
  std::optional<std::pair<int, int>> key;
  auto found = [&] { return (key = matcher.FirstCandidate(*pattern)).has_value(); };
  if (wait) {
    layer_.Block(found);
  } else if (!found()) {
    layer_.SyncToNow();
    if (!found()) return false;
  }
  *source = c.rank_of_world.at(key->first);
  *tag = key->second;
  return true;
}

void PointToPoint::LearnRealKey(RealReceive& op) {
  if (op.real_known) return;
  int done = 0;
  MPI_Status status;
  while (!done) PMPI_Request_get_status(op.real, &done, &status);
  op.real_known = true;
  op.real_src_world = op.comm->world_of[status.MPI_SOURCE];
  op.real_tag = status.MPI_TAG;
}

bool PointToPoint::Drive(RealReceive& op) {
  if (op.state == ReceiveOp::State::kUnresolved) layer_.matcher().Resolve(op.comm_id);
  if (op.state != ReceiveOp::State::kUnresolved) return op.state == ReceiveOp::State::kReady;
  if (!op.real_known && !layer_.matcher().RealReceiveIsSafe(op)) return false;
  LearnRealKey(op);
  // Earlier receives that could have taken this message have matched
  // already: learn theirs too, then resolve in posting order.
  for (ReceiveOp* e : layer_.matcher().EarlierMatching(op, op.real_src_world, op.real_tag)) {
    LearnRealKey(static_cast<RealReceive&>(*e));
  }
  layer_.matcher().Resolve(op.comm_id);
  if (op.state == ReceiveOp::State::kUnresolved) {
    Fatal(absl::StrCat(layer_.current_call(), ": a receive whose real message is known (from ",
                       op.real_src_world, ", tag ", op.real_tag,
                       ") did not resolve: a libtrestle-mpi bug"));
  }
  return op.state == ReceiveOp::State::kReady;
}

void PointToPoint::WaitReady(RealReceive& op) {
  layer_.Block([&] { return Drive(op); });
}

bool PointToPoint::Cancel(RealReceive& op) {
  if (Drive(op)) return false;
  layer_.SyncToNow();
  if (Drive(op)) return false;
  PMPI_Cancel(&op.real);
  int done = 0;
  MPI_Status status;
  while (!done) PMPI_Request_get_status(op.real, &done, &status);
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled) {
    layer_.matcher().Withdraw(&op);
    return true;
  }
  // The real receive had matched: if the real MPI chose among overlapping
  // wildcards, the message may be one whose mirror is here.
  LearnRealKey(op);
  if (Drive(op)) return false;
  Fatal(absl::StrCat(layer_.current_call(), " at ", layer_.Now(),
                     " ns of a receive whose message (from world rank ", op.real_src_world,
                     ", tag ", op.real_tag,
                     ") the real MPI had delivered ahead of its mirror, which is due later: "
                     "whether the cancel succeeds would depend on wall-clock timing, which "
                     "libtrestle-mpi does not model (docs/mpi.md)"));
}

int PointToPoint::Probe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status,
                        MPI_Message* message) {
  if (source == MPI_PROC_NULL) {
    if (message != nullptr) {
      return flag == nullptr ? PMPI_Mprobe(source, tag, comm, message, status)
                             : PMPI_Improbe(source, tag, comm, flag, message, status);
    }
    return flag == nullptr ? PMPI_Probe(source, tag, comm, status)
                           : PMPI_Iprobe(source, tag, comm, flag, status);
  }
  CommState& c = layer_.Comm(comm);
  ReceiveMatcher& matcher = layer_.matcher();
  std::unique_ptr<RealReceive> pattern = Follow(c, source, tag);
  MPI_Status found;
  if (matcher.MirrorsDecide(*pattern)) {
    // The first mirror it matches, in the model's order, is the message:
    // ask the real MPI for that one (it was sent before its mirror).
    if (!DecideByMirrors(c, &source, &tag, flag == nullptr)) {
      layer_.ChargePoll();
      *flag = 0;
      return MPI_SUCCESS;
    }
    const int rc = message != nullptr ? PMPI_Mprobe(source, tag, comm, message, &found)
                                      : PMPI_Probe(source, tag, comm, &found);
    if (rc != MPI_SUCCESS) return rc;
  } else {
    auto there = [&] { return matcher.RealProbeIsSafe(*pattern); };
    if (flag == nullptr) {
      layer_.Block(there);
    } else if (!there()) {
      layer_.SyncToNow();
      if (!there()) {
        layer_.ChargePoll();
        *flag = 0;
        return MPI_SUCCESS;
      }
    }
    // A message is there in virtual time; ask the real MPI which (for the
    // status). It finds one without any rank's virtual progress.
    int real_flag = 0;
    while (!real_flag) {
      const int rc = message != nullptr
                         ? PMPI_Improbe(source, tag, comm, &real_flag, message, &found)
                         : PMPI_Iprobe(source, tag, comm, &real_flag, &found);
      if (rc != MPI_SUCCESS) return rc;
    }
    const int src_world = c.world_of[found.MPI_SOURCE];
    // Receives that could have taken it have matched already.
    for (ReceiveOp* e : matcher.UnresolvedMatching(c.id, src_world, found.MPI_TAG)) {
      LearnRealKey(static_cast<RealReceive&>(*e));
    }
    matcher.Resolve(c.id);
    // Its mirror is the first of its key no receive claims (usually here).
    layer_.Block([&] {
      const SourceQueue* q = layer_.inbox().FindQueue(c.id, src_world);
      return q != nullptr && q->FirstUnassigned(found.MPI_TAG) != nullptr;
    });
  }
  if (message != nullptr) {
    // A matched probe takes the message: its mirror goes with it.
    std::unique_ptr<RealReceive> op = Follow(c, found.MPI_SOURCE, found.MPI_TAG);
    layer_.inbox().Queue(c.id, op->src_world).Claim(op->tag, op.get());
    matched_[*message] = std::move(op);
  }
  if (flag != nullptr) *flag = 1;
  if (status != MPI_STATUS_IGNORE) *status = found;
  return MPI_SUCCESS;
}

int PointToPoint::MatchedRecv(void* buffer, int count, MPI_Datatype type, MPI_Message* message,
                              MPI_Request* request, MPI_Status* status) {
  auto it = *message == MPI_MESSAGE_NULL ? matched_.end() : matched_.find(*message);
  if (it == matched_.end()) {  // MPI_MESSAGE_NO_PROC, or a handle that is not the layer's
    return request == nullptr ? PMPI_Mrecv(buffer, count, type, message, status)
                              : PMPI_Imrecv(buffer, count, type, message, request);
  }
  std::unique_ptr<RealReceive> op = std::move(it->second);
  matched_.erase(it);
  // Its mirror is here (the probe took it): the data was sent before it.
  if (request == nullptr) return PMPI_Mrecv(buffer, count, type, message, status);
  const int rc = PMPI_Imrecv(buffer, count, type, message, &op->real);
  if (rc != MPI_SUCCESS) return rc;
  const MPI_Request real = op->real;
  *request = real;
  layer_.requests().AddReceive(real, std::move(op));
  return MPI_SUCCESS;
}

}  // namespace trestle::mpi
