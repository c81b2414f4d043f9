#include "horizon-scheduler.h"

#include "ns3/object-factory.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(HorizonScheduler);

namespace
{
// The scheduler the last Install() created. ObjectFactory builds it inside
// Simulator::SetScheduler, which returns nothing; the constructor records
// it here so that Install() can hand it back. Simulator thread only.
HorizonScheduler* g_lastCreated = nullptr;
} // namespace

TypeId
HorizonScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HorizonScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Trestle")
                            .AddConstructor<HorizonScheduler>();
    return tid;
}

HorizonScheduler::HorizonScheduler()
    : m_events(CreateObject<MapScheduler>()),
      m_horizon(NO_HORIZON),
      m_budget(UNLIMITED),
      m_eventsRun(0)
{
    g_lastCreated = this;
}

HorizonScheduler::~HorizonScheduler()
{
    if (g_lastCreated == this)
    {
        g_lastCreated = nullptr;
    }
}

Ptr<HorizonScheduler>
HorizonScheduler::Install()
{
    ObjectFactory factory;
    factory.SetTypeId(GetTypeId());
    Simulator::SetScheduler(factory);
    return Ptr<HorizonScheduler>(g_lastCreated);
}

void
HorizonScheduler::SetHorizon(uint64_t ts)
{
    m_horizon = ts;
}

uint64_t
HorizonScheduler::GetHorizon() const
{
    return m_horizon;
}

void
HorizonScheduler::SetBudget(uint64_t events)
{
    m_budget = events;
    m_eventsRun = 0;
}

void
HorizonScheduler::Exhaust()
{
    m_budget = m_eventsRun;
}

uint64_t
HorizonScheduler::GetEventsRun() const
{
    return m_eventsRun;
}

bool
HorizonScheduler::ReachedHorizon() const
{
    return m_events->IsEmpty() || m_events->PeekNext().key.m_ts >= m_horizon;
}

uint64_t
HorizonScheduler::GetNextTs() const
{
    return m_events->IsEmpty() ? NO_EVENT : m_events->PeekNext().key.m_ts;
}

void
HorizonScheduler::Insert(const Event& ev)
{
    m_events->Insert(ev);
}

bool
HorizonScheduler::IsEmpty() const
{
    return m_eventsRun >= m_budget || ReachedHorizon();
}

Scheduler::Event
HorizonScheduler::PeekNext() const
{
    return m_events->PeekNext();
}

Scheduler::Event
HorizonScheduler::RemoveNext()
{
    ++m_eventsRun;
    return m_events->RemoveNext();
}

void
HorizonScheduler::Remove(const Event& ev)
{
    m_events->Remove(ev);
}

} // namespace ns3
