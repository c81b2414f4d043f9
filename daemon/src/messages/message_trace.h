// MessageTrace: one CSV line per message that reached its end, written to
// the file named by the `trace` setting (docs/protocol.md, "Trace"):
//
//   src,seq,dst,size,tclass,t_send,t_deliver,outcome,delivery_seq
//
// seq is the message's number among its sender's sends (the id's low 32
// bits); outcome is delivered, dropped, expired, lost_in_store or forwarded;
// delivery_seq is its place among what its receiver was handed (0 when it
// was never handed over). Lines follow the order messages ended, which may
// vary between runs; `trestle trace diff` compares two traces by (src, seq).
//
// Buffered (a write per MiB, not per message); flushed when destroyed.
// Loop thread only.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "messages/message_table.h"

namespace trestle::daemon {

class MessageTrace {
 public:
  // Creates or truncates `path`; the error names it.
  static absl::StatusOr<std::unique_ptr<MessageTrace>> Open(const std::string& path);
  ~MessageTrace();
  MessageTrace(const MessageTrace&) = delete;
  MessageTrace& operator=(const MessageTrace&) = delete;

  void Record(const MessageRecord& r, std::string_view src, std::string_view dst,
              std::string_view outcome);

 private:
  explicit MessageTrace(std::FILE* file) : file_(file) {}
  std::FILE* file_;
};

}  // namespace trestle::daemon
