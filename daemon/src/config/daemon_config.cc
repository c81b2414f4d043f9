#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

std::span<const NamedValue<SimAssignment>> SimAssignmentNames() {
  static constexpr NamedValue<SimAssignment> kNames[] = {
      {SimAssignment::kSystem, "system"},
      {SimAssignment::kPerNode, "per-node"},
  };
  return kNames;
}

std::span<const NamedValue<TimeMode>> TimeModeNames() {
  static constexpr NamedValue<TimeMode> kNames[] = {
      {TimeMode::kWallclock, "wallclock"},
      {TimeMode::kPaced, "paced"},
      {TimeMode::kVirtual, "virtual"},
      {TimeMode::kLockstep, "lockstep"},
  };
  return kNames;
}

std::span<const NamedValue<LogLevel>> LogLevelNames() {
  static constexpr NamedValue<LogLevel> kNames[] = {
      {LogLevel::kTrace, "trace"}, {LogLevel::kDebug, "debug"}, {LogLevel::kInfo, "info"},
      {LogLevel::kWarn, "warn"},   {LogLevel::kError, "error"}, {LogLevel::kOff, "off"},
  };
  return kNames;
}

}  // namespace trestle::daemon
