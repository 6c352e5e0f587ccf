/* libxml2 for PlistDOM. ICU is hidden: its headers clash with the ICU copy inside Foundation,
   and PlistDOM never touches the ICU-dependent fields (encoding handlers are used by pointer). */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
