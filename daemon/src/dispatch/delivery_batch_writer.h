// DeliveryBatchWriter: turns a batch of messages taken for one app into one
// DeliverBatch frame on the app's recv channel: each Delivery's fields and
// stamps, its delivery_seq (numbered on first write), and its payload, or,
// for a message sent by key to an app that takes payloads by key, only its
// size (Delivery.by_key).
//
// The frame is reused, so its Delivery messages (and their strings) are
// allocated once; after a large batch it is dropped, so that it does not
// keep megabytes of payload capacity alive. Loop thread only.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class Session;

class DeliveryBatchWriter {
 public:
  // Both must outlive the writer.
  DeliveryBatchWriter(MessageLedger& ledger, const ClientRegistry& apps)
      : ledger_(ledger), apps_(apps) {}

  // Writes the messages `ids` to `s` in one frame. `payloads` holds, in
  // order, the payloads of those that are DELIVERED (the rest are drop
  // reports) except those by key when `s` takes payloads by key
  // (Session::payload_by_key); they are moved into the frame. A message written for the
  // first time gets the app's next delivery_seq (`*last_seq` + 1). With
  // `keep_payloads`, each payload moves back into its record once the frame
  // is encoded, for a resend.
  void Write(Session& s, std::span<const std::uint64_t> ids, std::span<std::string> payloads,
             std::uint64_t* last_seq, bool keep_payloads);

 private:
  MessageLedger& ledger_;
  const ClientRegistry& apps_;
  wire::Frame frame_;
};

}  // namespace trestle::daemon
