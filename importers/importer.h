/*
 * Importing: the one call the command line makes to decode a PATH into a
 * store. importer.c walks PATH, asks every importer to probe each
 * directory and file, keeps the best claim for every unit and runs the
 * loaders in one store transaction. What the importers share among
 * themselves is in import-int.h.
 */
#ifndef IMPORTER_H
#define IMPORTER_H

#include "store.h"

/* importer.c */
int		 importer_run(struct store *, const char *, char **);
char		*importer_looked_for(void);
char		**importer_units(const char *, size_t *, char ***, int **,
		     size_t *);
void		 importer_warn_unread(struct store *, char **, const int *,
		     size_t);

#endif /* IMPORTER_H */
