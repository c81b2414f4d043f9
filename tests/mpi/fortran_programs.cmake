# ring_sendrecv and its Fortran twins (test_fortran.py): the C program, and
# the same steps through `use mpi`, mpif.h and `use mpi_f08`, built with
# mpif90's compiler and flags as a user's would be. Without a Fortran
# compiler or Open MPI's Fortran libraries they are not built, and the
# Fortran tests skip, saying so.
add_executable(mpi_ring_sendrecv programs/ring_sendrecv.c)
target_link_libraries(mpi_ring_sendrecv PRIVATE MPI::MPI_C m)
target_compile_options(mpi_ring_sendrecv PRIVATE -fno-sanitize=all)
target_link_options(mpi_ring_sendrecv PRIVATE -fno-sanitize=all)

include(CheckLanguage)
check_language(Fortran)
if(CMAKE_Fortran_COMPILER)
  enable_language(Fortran)
  find_package(MPI COMPONENTS Fortran QUIET)
endif()
if(NOT MPI_Fortran_FOUND)
  message(STATUS "No Fortran compiler or MPI Fortran (gfortran, libopenmpi-dev): "
                 "the Fortran programs of tests/mpi are not built")
  return()
endif()

# ring_sendrecv.f90 is preprocessed: -DTRESTLE_MPIF_H makes it the mpif.h one.
add_executable(mpi_ring_sendrecv_use_mpi programs/ring_sendrecv.f90)
add_executable(mpi_ring_sendrecv_mpif_h programs/ring_sendrecv.f90)
target_compile_definitions(mpi_ring_sendrecv_mpif_h PRIVATE TRESTLE_MPIF_H)
add_executable(mpi_graph_topologies_f programs/graph_topologies.f90)
set(fortran_programs mpi_ring_sendrecv_use_mpi mpi_ring_sendrecv_mpif_h mpi_graph_topologies_f)
if(MPI_Fortran_HAVE_F08_MODULE)
  add_executable(mpi_ring_sendrecv_f08 programs/ring_sendrecv_f08.f90)
  list(APPEND fortran_programs mpi_ring_sendrecv_f08)
endif()
foreach(program IN LISTS fortran_programs)
  target_link_libraries(${program} PRIVATE MPI::MPI_Fortran)
  set_target_properties(${program} PROPERTIES Fortran_PREPROCESS ON
                        Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules/${program})
  target_compile_options(${program} PRIVATE -fno-sanitize=all)
  target_link_options(${program} PRIVATE -fno-sanitize=all)
endforeach()

# The same programs built for MPICH (mpich_ring_sendrecv*: test_mpich.py),
# as mpicc.mpich and mpif90.mpich build them: MPICH's headers and modules,
# libmpichfort, and the argument-mismatch leniency mpif90.mpich passes.
if(NOT TARGET trestle-mpi-mpich)
  return()
endif()
find_library(MPICH_FORTRAN_LIBRARY mpichfort)
if(NOT MPICH_FORTRAN_LIBRARY)
  message(STATUS "No libmpichfort: the MPICH Fortran programs of tests/mpi are not built")
  return()
endif()
add_executable(mpich_ring_sendrecv programs/ring_sendrecv.c)
target_link_libraries(mpich_ring_sendrecv PRIVATE PkgConfig::MPICH m)
add_executable(mpich_ring_sendrecv_use_mpi programs/ring_sendrecv.f90)
add_executable(mpich_ring_sendrecv_mpif_h programs/ring_sendrecv.f90)
target_compile_definitions(mpich_ring_sendrecv_mpif_h PRIVATE TRESTLE_MPIF_H)
add_executable(mpich_ring_sendrecv_f08 programs/ring_sendrecv_f08.f90)
foreach(program mpich_ring_sendrecv_use_mpi mpich_ring_sendrecv_mpif_h mpich_ring_sendrecv_f08)
  target_link_libraries(${program} PRIVATE ${MPICH_FORTRAN_LIBRARY} PkgConfig::MPICH)
  set_target_properties(${program} PROPERTIES Fortran_PREPROCESS ON
                        Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules/${program})
  target_compile_options(${program} PRIVATE -fallow-invalid-boz -fallow-argument-mismatch)
endforeach()
foreach(program mpich_ring_sendrecv mpich_ring_sendrecv_use_mpi mpich_ring_sendrecv_mpif_h
                mpich_ring_sendrecv_f08)
  target_compile_options(${program} PRIVATE -fno-sanitize=all)
  target_link_options(${program} PRIVATE -fno-sanitize=all)
endforeach()
