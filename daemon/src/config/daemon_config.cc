#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

platform::EnumNames<SimAssignment> SimAssignmentNames() {
  static constexpr platform::EnumName<SimAssignment> kNames[] = {
      {SimAssignment::kSystem, "system"},
      {SimAssignment::kPerNode, "per-node"},
  };
  return kNames;
}

platform::EnumNames<LogLevel> LogLevelNames() {
  static constexpr platform::EnumName<LogLevel> kNames[] = {
      {LogLevel::kTrace, "trace"}, {LogLevel::kDebug, "debug"}, {LogLevel::kInfo, "info"},
      {LogLevel::kWarn, "warn"},   {LogLevel::kError, "error"}, {LogLevel::kOff, "off"},
  };
  return kNames;
}

}  // namespace trestle::daemon
