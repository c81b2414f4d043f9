# Registries of subcommands, so that a binary gathers the commands of the
# libraries that were built without an #ifdef: `trestle-sim` the adapters'
# (trestle_sim_adapter, sim-adapters/CMakeLists.txt), `trestle` those of other
# folders such as bench/load's `bench` (trestle_cli_command, tools/README.md).
#
# A library that adds subcommands declares `void RegisterX(CLI::App& app)` in
# a public header and, in its CMakeLists.txt after the library (and only when
# it is built):
#   trestle_cli_command(TARGET trestle_x HEADER trestle/x/x_command.h
#                       FUNCTION trestle::x::RegisterX)
# The binary's folder, added after every registering folder, writes a source
# that includes every header and calls every function in registration order
# (trestle_write_registry) and links the registered targets.

# Appends one registration to REGISTRY (a name for global properties).
function(trestle_register REGISTRY)
  cmake_parse_arguments(ENTRY "" "TARGET;HEADER;FUNCTION" "" ${ARGN})
  if(NOT ENTRY_TARGET OR NOT ENTRY_HEADER OR NOT ENTRY_FUNCTION)
    message(FATAL_ERROR "${REGISTRY}: a registration needs TARGET, HEADER and FUNCTION")
  endif()
  set_property(GLOBAL APPEND PROPERTY ${REGISTRY}_TARGETS ${ENTRY_TARGET})
  set_property(GLOBAL APPEND PROPERTY ${REGISTRY}_HEADERS ${ENTRY_HEADER})
  set_property(GLOBAL APPEND PROPERTY ${REGISTRY}_FUNCTIONS ${ENTRY_FUNCTION})
endfunction()

# Writes OUTPUT from TEMPLATE, whose @REGISTRY_INCLUDES@ becomes one #include
# per registered header and @REGISTRY_CALLS@ one `  function(app);` line per
# registered function; sets TARGETS_VAR to the registered targets, once each.
function(trestle_write_registry REGISTRY TEMPLATE OUTPUT TARGETS_VAR)
  get_property(targets GLOBAL PROPERTY ${REGISTRY}_TARGETS)
  get_property(headers GLOBAL PROPERTY ${REGISTRY}_HEADERS)
  get_property(functions GLOBAL PROPERTY ${REGISTRY}_FUNCTIONS)
  set(REGISTRY_INCLUDES "")
  foreach(header ${headers})
    string(APPEND REGISTRY_INCLUDES "#include \"${header}\"\n")
  endforeach()
  set(REGISTRY_CALLS "")
  foreach(function ${functions})
    string(APPEND REGISTRY_CALLS "  ${function}(app);\n")
  endforeach()
  configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
  if(targets)
    list(REMOVE_DUPLICATES targets)
  endif()
  set(${TARGETS_VAR} ${targets} PARENT_SCOPE)
endfunction()

# An adapter library's subcommands for trestle-sim.
function(trestle_sim_adapter)
  trestle_register(TRESTLE_SIM_ADAPTER ${ARGN})
endfunction()

# Another folder's subcommands for the `trestle` CLI.
function(trestle_cli_command)
  trestle_register(TRESTLE_CLI_COMMAND ${ARGN})
endfunction()
