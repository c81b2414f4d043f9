// Renders the daemon's counters, gauges and stage histograms in the
// Prometheus text exposition format (version 0.0.4). Pure function of the
// admin replies, so it can run off the loop thread.
#pragma once

#include <string>

#include "admin.pb.h"

namespace trestle::daemon {

std::string RenderPrometheusText(const admin::StatusReply& status, const admin::StatsReply& stats);

}  // namespace trestle::daemon
