#include "dataplane/send_admission.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "session/session.h"
#include "trestle/wire/delivery_overhead.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {

using wire::kDeliveryOverheadBytes;

SendAdmission::SendAdmission(const DaemonConfig& config, MessageLedger& ledger,
                             ClientRegistry& apps, PayloadStore& store,
                             DestinationLookup& destinations, SimulatorAssignment& assignment,
                             TransitDispatcher& transits)
    : config_(config),
      ledger_(ledger),
      apps_(apps),
      store_(store),
      destinations_(destinations),
      assignment_(assignment),
      transits_(transits) {}

void SendAdmission::Reject(std::uint32_t sender, std::uint64_t id, wire::ErrorCode code,
                           const std::string& text) {
  ledger_.Reject(sender);
  Session* s = apps_.at(sender).session;
  if (s != nullptr && s->send() != nullptr) s->send()->SendError(code, text, id);
}

void SendAdmission::OnSend(Session& s, wire::Send& send) {
  const std::uint64_t id = s.NextId();
  const std::uint32_t sender = s.client();
  if (draining_) {
    Reject(sender, id, wire::SHUTTING_DOWN, "the daemon is draining: no new sends are accepted");
    return;
  }
  if (send.dst().empty()) {
    Reject(sender, id, wire::BAD_REQUEST, "Send.dst is empty: name the destination app");
    return;
  }
  if (send.dst().size() > wire::kMaxClientIdBytes) {
    Reject(sender, id, wire::BAD_REQUEST,
           absl::StrCat("Send.dst of ", send.dst().size(), " bytes is too long: client ids are at "
                        "most ", wire::kMaxClientIdBytes, " bytes"));
    return;
  }
  // By key the payload is already in the store: `size` says how large.
  const bool by_key = send.by_key();
  if (by_key && !CheckByKey(sender, id, send)) return;
  const std::uint64_t size = by_key ? send.size() : send.payload().size();
  if (size + kDeliveryOverheadBytes > config_.max_frame_bytes) {
    Reject(sender, id, wire::BAD_REQUEST,
           absl::StrCat("payload of ", size,
                        " bytes is too large to deliver: at most max_frame_bytes - ",
                        kDeliveryOverheadBytes, " = ",
                        config_.max_frame_bytes - kDeliveryOverheadBytes));
    return;
  }
  if (send.has_model_size() && send.model_size() > wire::kMaxModelSizeBytes) {
    Reject(sender, id, wire::BAD_REQUEST,
           absl::StrCat("Send.model_size of ", send.model_size(), " bytes is over the limit of ",
                        wire::kMaxModelSizeBytes, " (2^50)"));
    return;
  }
  if (!send.collectives().empty() && !CheckCollectives(sender, id, send)) return;
  // Collectives ahead of their time (docs/protocol.md, "Collectives"): the
  // sender may not have taken in what it was handed while blocked, and its
  // t_send is only a floor for their replay; they go at its clock.
  if (time_ != nullptr && !send.collectives().empty()) {
    send.set_t_send(std::max(send.t_send(), time_->ClockOf(s)));
  }
  if (time_ != nullptr) {
    if (absl::Status in_time = time_->OnSend(s, send.t_send()); !in_time.ok()) {
      Reject(sender, id, wire::BAD_REQUEST, std::string(in_time.message()));
      return;
    }
  }
  absl::StatusOr<Destination> dst = destinations_.Resolve(sender, send.dst());
  if (!dst.ok()) {
    Reject(sender, id,
           dst.status().code() == absl::StatusCode::kResourceExhausted ? wire::RESOURCE_EXHAUSTED
                                                                        : wire::BAD_REQUEST,
           std::string(dst.status().message()));
    return;
  }
  MessageRecord* r = ledger_.Open(id, sender, dst->app);
  if (r == nullptr) {
    apps_.Retain(dst->app);
    apps_.Release(dst->app);  // a destination named only by this send goes again
    Reject(sender, id, wire::BAD_REQUEST,
           absl::StrCat("message id ", id, " is already in use (session ids wrapped)"));
    return;
  }
  r->queue = assignment_.QueueForApp(sender, apps_.at(sender).id);
  r->tclass = send.tclass();
  r->size = size;
  r->has_model_size = send.has_model_size();
  r->model_size = send.model_size();
  r->by_key = by_key;
  r->t_send = send.t_send();
  r->app_sent = send.app_sent();
  r->accepted = wire::MonotonicNanos();
  r->notify_drop = send.notify_drop();
  r->collectives = std::move(*send.mutable_collectives());
  const std::uint32_t queue = r->queue;
  if (time_ != nullptr) time_->OnAdmitted(*r);
  if (by_key) {
    store_.Adopt(id, size, [this, id](const absl::Status& status) { OnStored(id, status); });
  } else {
    store_.Put(id, std::move(*send.mutable_payload()),
               [this, id](const absl::Status& status) { OnStored(id, status); });
  }
  transits_.ThrottleSender(s, queue);
}

bool SendAdmission::CheckByKey(std::uint32_t sender, std::uint64_t id, const wire::Send& send) {
  std::string why;
  if (config_.store != StoreKind::kRedis) {
    why = "this daemon's payload store is memory: payloads by key need a Redis store (--store "
          "redis://HOST:PORT[/DB]); send the payload inline";
  } else if (!config_.payload_by_key) {
    why = "sends by key are off on this daemon (payload_by_key: false); send the payload inline";
  } else if (!send.payload().empty()) {
    why = absl::StrCat("the Send carries a payload of ", send.payload().size(),
                       " bytes: a send by key carries none (the payload is in the store)");
  } else if (send.size() == 0) {
    why = "Send.size is 0: an empty payload goes inline";
  } else {
    return true;
  }
  Reject(sender, id, wire::BAD_REQUEST, absl::StrCat("Send.by_key refused: ", why));
  return false;
}

bool SendAdmission::CheckCollectives(std::uint32_t sender, std::uint64_t id,
                                     const wire::Send& send) {
  std::string why;
  const std::string& self = apps_.at(sender).id;
  if (send.dst() != self) {
    why = absl::StrCat("it goes to ", send.dst(), ": a message carrying collectives goes to its "
                       "sender itself (", self, ")");
  } else if (send.collectives().size() > config_.max_frame_bytes / 2) {
    why = absl::StrCat("they take ", send.collectives().size(),
                       " bytes, over the limit of half of max_frame_bytes (",
                       config_.max_frame_bytes / 2, "): send them in smaller batches");
  } else {
    return true;
  }
  Reject(sender, id, wire::BAD_REQUEST, absl::StrCat("Send.collectives refused: ", why));
  return false;
}

void SendAdmission::OnStored(std::uint64_t id, const absl::Status& status) {
  MessageRecord* r = ledger_.Find(id);
  if (r == nullptr) return;
  if (!status.ok()) {
    // A payload by key that is not as announced names its key; the store
    // being away is UNAVAILABLE, as for inline payloads.
    if (status.code() == absl::StatusCode::kNotFound) {
      Reject(r->src, id, wire::NOT_FOUND, std::string(status.message()));
    } else if (status.code() == absl::StatusCode::kUnavailable) {
      Reject(r->src, id, wire::UNAVAILABLE,
             absl::StrCat("payload store ", std::string(store_.name()),
                          r->by_key ? " could not check the payload by key: "
                                    : " did not take the payload: ",
                          status.message()));
    } else {
      Reject(r->src, id, wire::BAD_REQUEST, std::string(status.message()));
    }
    if (time_ != nullptr) time_->OnDiscarded(*r);
    ledger_.Erase(id);  // after Reject: the record holds the sender's entry
    return;
  }
  ledger_.Accept(*r);
  if (federation_ != nullptr && federation_->TakeTransit(*r)) return;
  transits_.Enqueue(*r);
}

}  // namespace trestle::daemon
