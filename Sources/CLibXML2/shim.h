// libxml2's HTML parser and tree API, for HTML form parsing.
//
// Debian builds libxml2 with ICU, so its encoding.h includes the system's <unicode/ucnv.h>, whose
// UErrorCode clashes with the copy of ICU inside Foundation (_FoundationICU) on a clean build.
// authflow never touches the ICU members of xmlCharEncodingHandler (it only holds pointers to
// it), so the shim turns the ICU include off before the rest of libxml2 is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
