// Writes the FCLib fuzzer's seeds with libfclib itself: a one-contact problem, and a two-contact
// problem with equality rows (V, R, s), into the folder given as the only argument.
#include <cstdio>
#include <string>

extern "C" {
#include <fclib.h>
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fclib_seeds FOLDER\n");
    return 2;
  }
  const std::string dir = argv[1];
  // W = I (3 x 3, compressed columns), mu = 0.5: one contact pressed and sliding.
  int p1[] = {0, 1, 2, 3}, i1[] = {0, 1, 2};
  double x1[] = {1.0, 1.0, 1.0};
  fclib_matrix W1{3, 3, 3, p1, i1, x1, -1, nullptr};
  double q1[] = {-1.0, 0.3, -0.2}, mu1[] = {0.5};
  fclib_local one{&W1, nullptr, nullptr, mu1, q1, nullptr, 3, nullptr};
  // Two contacts coupled through W, one equality row: V (6 x 1), R (1 x 1), s.
  int p2[] = {0, 2, 3, 4, 6, 7, 8}, i2[] = {0, 3, 1, 2, 0, 3, 4, 5};
  double x2[] = {2.0, 0.5, 1.0, 1.0, 0.5, 2.0, 1.0, 1.0};
  fclib_matrix W2{8, 6, 6, p2, i2, x2, -1, nullptr};
  int pv[] = {0, 2}, iv[] = {0, 3};
  double xv[] = {1.0, 1.0};
  fclib_matrix V{2, 6, 1, pv, iv, xv, -1, nullptr};
  int pr[] = {0, 1}, ir[] = {0};
  double xr[] = {1.0};
  fclib_matrix R{1, 1, 1, pr, ir, xr, -1, nullptr};
  double q2[] = {-1.0, 0.2, 0.0, -0.5, 0.0, 0.1}, mu2[] = {0.3, 0.8}, s[] = {0.25};
  fclib_local two{&W2, &V, &R, mu2, q2, s, 3, nullptr};
  const bool ok = fclib_write_local(&one, (dir + "/one_contact.hdf5").c_str()) == 1 &&
                  fclib_write_local(&two, (dir + "/two_contacts.hdf5").c_str()) == 1;
  if (!ok) std::fprintf(stderr, "make_fclib_seeds: libfclib could not write into %s\n", argv[1]);
  return ok ? 0 : 1;
}
