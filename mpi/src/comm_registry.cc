#include "comm_registry.h"

namespace trestle::mpi {
namespace {

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::uint64_t CommRegistry::ChildId(std::uint64_t parent, std::uint32_t instance,
                                    int first_world_rank) {
  std::uint64_t h = Mix(parent ^ 0x9e3779b97f4a7c15ull);
  h = Mix(h ^ instance);
  h = Mix(h ^ static_cast<std::uint32_t>(first_world_rank));
  return h < 2 ? h + 2 : h;  // never the world's id, nor 0
}

CommState& CommRegistry::Add(MPI_Comm comm, MPI_Comm shadow, std::uint64_t id) {
  auto state = std::make_unique<CommState>();
  state->comm = comm;
  state->shadow = shadow;
  state->id = id;
  PMPI_Comm_rank(comm, &state->rank);
  PMPI_Comm_size(comm, &state->size);
  state->sent_to.assign(state->size, 0);
  state->world_of.resize(state->size);
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(state->size);
  for (int i = 0; i < state->size; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(group, state->size, ranks.data(), world, state->world_of.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  for (int i = 0; i < state->size; ++i) state->rank_of_world[state->world_of[i]] = i;
  CommState& ref = *state;
  comms_[comm] = std::move(state);
  return ref;
}

CommState* CommRegistry::Find(MPI_Comm comm) const {
  auto it = comms_.find(comm);
  return it == comms_.end() ? nullptr : it->second.get();
}

void CommRegistry::Remove(MPI_Comm comm) {
  auto it = comms_.find(comm);
  if (it == comms_.end()) return;
  if (it->second->shadow != MPI_COMM_NULL) PMPI_Comm_free(&it->second->shadow);
  comms_.erase(it);
}

void CommRegistry::Clear() {
  for (auto& [comm, state] : comms_) {
    if (state->shadow != MPI_COMM_NULL) PMPI_Comm_free(&state->shadow);
  }
  comms_.clear();
}

}  // namespace trestle::mpi
