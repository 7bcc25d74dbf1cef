/*
 * The fuzz targets (fuzz.c), their seeds (fuzz-seeds.c) and the driver
 * that runs them without libFuzzer (fuzz-main.c).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int		 LLVMFuzzerTestOneInput(const uint8_t *, size_t);
void		 fuzz_init(void);
void		 fuzz_cleanup(void);
void		 fuzz_seeds(const char *);
void		 fuzz_write(const char *, const uint8_t *, size_t);

/* fuzz-seeds.c */
void		 fuzz_seeds_write(const char *, const char *, const char *);

#endif /* FUZZ_H */
