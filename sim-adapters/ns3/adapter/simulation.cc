#include "adapter/simulation.h"

#include "ns3/config.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "trestle/platform/check.h"

namespace trestle::ns3_adapter {
namespace {

bool g_active = false;  // one Simulation at a time (simulator thread only)

}  // namespace

Simulation::Simulation(std::uint64_t seed) {
  // Two at once would share ns-3's one simulator: a programming error.
  TRESTLE_CHECK(!g_active, "trestle ns3: a second Simulation while one is active");
  g_active = true;
  // Before the first simulator run only: later, times created earlier would
  // not be converted. Every Simulation sets the same unit.
  if (ns3::Time::GetResolution() != ns3::Time::PS) ns3::Time::SetResolution(ns3::Time::PS);
  ns3::Config::Reset();
  ns3::Ipv4AddressGenerator::Reset();
  ns3::RngSeedManager::SetSeed(static_cast<std::uint32_t>(seed == 0 ? 1 : seed));
  ns3::RngSeedManager::SetRun(1 + (seed >> 32));
  scheduler_ = ns3::HorizonScheduler::Install();
}

Simulation::~Simulation() {
  // Let the simulator see (and free) every event that is left.
  scheduler_->SetHorizon(ns3::HorizonScheduler::NO_HORIZON);
  scheduler_->SetBudget(ns3::HorizonScheduler::UNLIMITED);
  ns3::Simulator::Destroy();
  scheduler_ = nullptr;
  g_active = false;
}

bool Simulation::Active() { return g_active; }

bool Simulation::RunSlice(std::uint64_t horizon_ps, std::uint64_t max_events) {
  scheduler_->SetHorizon(horizon_ps);
  scheduler_->SetBudget(max_events);
  ns3::Simulator::Run();
  events_run_ += scheduler_->GetEventsRun();
  scheduler_->SetBudget(0);  // nothing runs outside a slice
  return scheduler_->ReachedHorizon();
}

void Simulation::EndSlice() { scheduler_->Exhaust(); }

std::uint64_t Simulation::NowPs() const {
  return static_cast<std::uint64_t>(ns3::Simulator::Now().GetTimeStep());
}

std::uint64_t Simulation::NextEventPs() const {
  const std::uint64_t next = scheduler_->GetNextTs();
  return next == ns3::HorizonScheduler::NO_EVENT ? kNoEvent : next;
}

}  // namespace trestle::ns3_adapter
