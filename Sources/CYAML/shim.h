// libyaml's event parser, imported as is.
#ifndef TRANSVID_CYAML_SHIM_H
#define TRANSVID_CYAML_SHIM_H
#include <yaml.h>
#endif
