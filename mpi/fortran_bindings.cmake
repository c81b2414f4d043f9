# The Fortran bindings of libtrestle-mpi (mpif.h, `use mpi`, `use mpi_f08`:
# src/wrap_fortran_*.cc), added to the Open MPI build: their symbol names and
# sentinels are Open MPI's (fortran_names.h, fortran_handles.h).
#
# Their refusals are read from the C table, src/wrap_refused.cc (each
# `TRESTLE_REFUSE(MPI_Name, "what")` line), into fortran_refused_calls.inc,
# so a call refused in C is refused in Fortran and the two lists cannot
# differ. An edit of wrap_refused.cc reconfigures the build.
set(refused_table ${CMAKE_CURRENT_SOURCE_DIR}/src/wrap_refused.cc)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${refused_table})
file(STRINGS ${refused_table} refused_lines REGEX "^TRESTLE_REFUSE\\(")
set(fortran_refused "")
foreach(line IN LISTS refused_lines)
  if(NOT line MATCHES "^TRESTLE_REFUSE\\(MPI_([A-Za-z0-9_]+), (\"[^\"]*\")\\)$")
    message(FATAL_ERROR "src/wrap_refused.cc: the Fortran refusals cannot read this line "
                        "(want TRESTLE_REFUSE(MPI_Name, \"what\") on one line): ${line}")
  endif()
  string(TOLOWER "${CMAKE_MATCH_1}" stem)
  string(TOUPPER "${CMAKE_MATCH_1}" STEM)
  string(APPEND fortran_refused
         "TRESTLE_FORTRAN_REFUSE(${stem}, ${STEM}, \"MPI_${CMAKE_MATCH_1}\", ${CMAKE_MATCH_2})\n")
endforeach()
if(fortran_refused STREQUAL "")
  message(FATAL_ERROR "src/wrap_refused.cc has no TRESTLE_REFUSE(MPI_Name, \"what\") line: "
                      "the Fortran refusals are read from them")
endif()
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/fortran_refused_calls.inc
     CONTENT "${fortran_refused}" @ONLY)

target_sources(trestle-mpi PRIVATE
  src/fortran_handles.cc
  src/wrap_fortran_collectives.cc
  src/wrap_fortran_communicators.cc
  src/wrap_fortran_init.cc
  src/wrap_fortran_persistent.cc
  src/wrap_fortran_point_to_point.cc
  src/wrap_fortran_refused.cc
  src/wrap_fortran_requests.cc)
target_include_directories(trestle-mpi PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
