/*
 * memfile.h: a harness's input as a file the parser opens by name, for
 * the parsers that read a file (the fleet's --servers, the probe's
 * profiles).
 */
#ifndef SCANBENCH_FUZZ_MEMFILE_H
#define SCANBENCH_FUZZ_MEMFILE_H

#include <stddef.h>
#include <stdint.h>

extern const char *memfile_path(const uint8_t *data, size_t size);

#endif
