#!/bin/sh
# prof-bad.sh's damaged collections (cut slices, wrong magic, lone event
# halves, impossible times, ...) again with the host's API spans sorted in
# runs of three on disk (NPUPROF_SPAN_RUN): every check must hold the
# same, as the store must be the same whatever the runs.
NPUPROF_SPAN_RUN=3
export NPUPROF_SPAN_RUN
. "$top_srcdir/tests/importers/prof/prof-bad.sh"
