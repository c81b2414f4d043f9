#include "net/connection.h"

#include <string>

namespace trestle::daemon {

void Connection::SendError(wire::ErrorCode code, std::string_view text, std::uint64_t ref_id,
                           bool close_after) {
  wire::Frame frame;
  wire::Error* error = frame.mutable_error();
  error->set_code(code);
  error->set_text(std::string(text));
  error->set_ref_id(ref_id);
  stream_.Write(frame);
  if (close_after) {
    stream_.Close();
  }
}

void Connection::OnStreamError(wire::FramedStream&, std::string_view what) {
  // The byte stream is out of step; tell the peer why, then treat it as lost.
  SendError(wire::BAD_FRAME, what);
  owner_.OnConnectionLost(*this);
}

}  // namespace trestle::daemon
