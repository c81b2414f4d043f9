/*
 * HorizonScheduler: an event scheduler that lets Simulator::Run() stop at an
 * exact simulated time and after a bounded amount of work, so that ns-3 can
 * run in slices on the adapter's event loop without ever blocking it.
 *
 * It keeps its events in a MapScheduler and hides from the simulator every
 * event at or after the horizon, and every event once the slice's budget of
 * events is spent: the simulator then sees an empty queue and Run() returns.
 * Because the simulator runs events in (time, insertion) order, "every event
 * before the horizon has run, none at or after it" is an exact statement:
 * no event at the horizon's timestamp has run, whichever was inserted first.
 * A caller that injects work at exactly the horizon therefore gets the same
 * order of events however the run was sliced.
 *
 * Usage (the simulator runs one scheduler at a time, so there is one):
 *
 *   Ptr<HorizonScheduler> scheduler = HorizonScheduler::Install();
 *   scheduler->SetHorizon(horizonTs);   // timestamps in the simulator's unit
 *   scheduler->SetBudget(10000);        // events, this slice
 *   Simulator::Run();                   // returns at the horizon or budget
 *   bool reached = scheduler->ReachedHorizon();
 *
 * Before Simulator::Destroy(), clear the horizon (SetHorizon(NO_HORIZON),
 * SetBudget(UNLIMITED)) so that the simulator can empty the queue.
 * Simulator thread only.
 */
#ifndef HORIZON_SCHEDULER_H
#define HORIZON_SCHEDULER_H

#include "ns3/map-scheduler.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <limits>

namespace ns3
{

class HorizonScheduler : public Scheduler
{
  public:
    /** SetHorizon(): no limit in time. */
    static constexpr uint64_t NO_HORIZON = std::numeric_limits<uint64_t>::max();
    /** SetBudget(): no limit on events. */
    static constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();
    /** GetNextTs() when no event is queued at all. */
    static constexpr uint64_t NO_EVENT = std::numeric_limits<uint64_t>::max();

    static TypeId GetTypeId();

    HorizonScheduler();
    ~HorizonScheduler() override;

    /**
     * Makes a new HorizonScheduler the simulator's scheduler (moving any
     * queued events into it) and returns it.
     */
    static Ptr<HorizonScheduler> Install();

    /** Events with timestamp >= \p ts are hidden from the simulator. */
    void SetHorizon(uint64_t ts);
    uint64_t GetHorizon() const;
    /** At most \p events more are handed to the simulator (until reset). */
    void SetBudget(uint64_t events);
    /** Spends the rest of the budget: Run() returns after the current event. */
    void Exhaust();
    /** Events handed out since the last SetBudget. */
    uint64_t GetEventsRun() const;

    /** True when no queued event lies before the horizon. */
    bool ReachedHorizon() const;
    /** Timestamp of the earliest queued event, hidden or not; NO_EVENT when none. */
    uint64_t GetNextTs() const;

    // Scheduler.
    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    Ptr<MapScheduler> m_events; //!< every queued event
    uint64_t m_horizon;
    uint64_t m_budget;
    uint64_t m_eventsRun;
};

} // namespace ns3

#endif /* HORIZON_SCHEDULER_H */
