/* MPI-IO under libtrestle-mpi: it runs for real, each collective file call
 * modelled as a barrier, as a communicator's creation is, and the calls that
 * are not collective take no virtual time under --compute none. Every rank
 * writes its block with MPI_File_write_at_all, reads its neighbour's with
 * MPI_File_read_at, and all of it back through a view with
 * MPI_File_read_all, checking the data. It prints the virtual time after
 * each collective file call; with MODE dup it makes an MPI_Comm_dup (and
 * frees it) in place of each, so the two runs must print the same times.
 * Usage: file_io LINK_NS BYTES_PER_NS file|dup PATH */
#include <string.h>

#include "model_time.h"

enum { kCount = 1000, kCalls = 6 };

static int dup_mode;
static double ends[kCalls];
static int calls;

/* `call` in file mode, a communicator's creation in dup mode; then the time. */
#define COLLECTIVE(call)                      \
  do {                                        \
    if (dup_mode) {                           \
      MPI_Comm d_;                            \
      MPI_Comm_dup(MPI_COMM_WORLD, &d_);      \
      MPI_Comm_free(&d_);                     \
    } else {                                  \
      call;                                   \
    }                                         \
    ends[calls++] = NowNs();                  \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ReadLink(argc, argv);
  EXPECT(argc == 5, "usage: file_io LINK_NS BYTES_PER_NS file|dup PATH");
  dup_mode = strcmp(argv[3], "dup") == 0;
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int mine[kCount], theirs[kCount];
  for (int i = 0; i < kCount; ++i) mine[i] = r * 100000 + i;
  const MPI_Offset block = sizeof mine;
  int* all = malloc(sizeof mine * n);

  MPI_File fh = MPI_FILE_NULL;
  COLLECTIVE(EXPECT(MPI_File_open(MPI_COMM_WORLD, argv[4], MPI_MODE_CREATE | MPI_MODE_RDWR,
                                  MPI_INFO_NULL, &fh) == MPI_SUCCESS,
                    "open %s", argv[4]));
  COLLECTIVE(MPI_File_write_at_all(fh, r * block, mine, kCount, MPI_INT, MPI_STATUS_IGNORE));
  COLLECTIVE(MPI_File_sync(fh));
  if (!dup_mode) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    const int next = (r + 1) % n;
    const double t0 = NowNs();
    MPI_File_read_at(fh, next * block, theirs, kCount, MPI_INT, MPI_STATUS_IGNORE);
    EXPECT(NowNs() == t0, "MPI_File_read_at took %.0f ns under --compute none", NowNs() - t0);
    for (int i = 0; i < kCount; ++i) {
      EXPECT(theirs[i] == next * 100000 + i, "rank %d's word %d: %d", next, i, theirs[i]);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_free(&d);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  /* Everything, through a view of the whole file. */
  COLLECTIVE(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  COLLECTIVE(MPI_File_read_all(fh, all, kCount * n, MPI_INT, MPI_STATUS_IGNORE));
  if (!dup_mode) {
    for (int b = 0; b < n; ++b) {
      for (int i = 0; i < kCount; ++i) {
        EXPECT(all[b * kCount + i] == b * 100000 + i, "block %d word %d: %d", b, i,
               all[b * kCount + i]);
      }
    }
  }
  COLLECTIVE(MPI_File_close(&fh));
  EXPECT(dup_mode || fh == MPI_FILE_NULL, "the closed handle is not MPI_FILE_NULL");
  free(all);
  printf("file_io: rank %d: ends", r);
  for (int i = 0; i < calls; ++i) printf(" %.0f", ends[i]);
  printf(" ns, ok\n");
  MPI_Finalize();
  return 0;
}
