/*
 * fuzz_explain.c: scanbench-probe's reading of EXPLAIN's JSON
 * (../scanbench-probe/explain.c), text a server sends, on any text: it
 * must end with figures or a message, reading nothing past the text's end.
 *
 * The input is the text itself, cut at its first NUL byte as libpq's
 * value is.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *json = malloc(size + 1);
	ExplainFigures f;
	char	   *error = NULL;
	bool		ok;

	memcpy(json, data, size);
	json[size] = '\0';
	ok = explain_parse(json, &f, &error);
	if (ok != (error == NULL))
		abort();
	if (memchr(f.top_node, '\0', sizeof(f.top_node)) == NULL)
		abort();
	if (ok && (isnan(f.execution_ms) || isnan(f.hit_blocks) || isnan(f.read_blocks) || !f.seq_scan))
		abort();
	free(error);
	free(json);
	return 0;
}
