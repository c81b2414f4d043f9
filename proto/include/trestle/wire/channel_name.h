// A channel's name in error messages: "ctrl", "send", "recv", or
// "unattached" for CHANNEL_UNSPECIFIED (a connection before Hello or Attach).
// C++17-clean.
#pragma once

#include "trestle.pb.h"

namespace trestle::wire {

inline const char* ChannelName(Channel channel) {
  switch (channel) {
    case CHANNEL_CTRL:
      return "ctrl";
    case CHANNEL_SEND:
      return "send";
    case CHANNEL_RECV:
      return "recv";
    default:
      return "unattached";
  }
}

}  // namespace trestle::wire
