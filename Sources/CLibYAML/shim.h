// libyaml's event parser (the system's libyaml-dev, `yaml-0.1` by pkg-config), which AuthFlowYAML
// drives with its own resource limits: depth, alias expansion, nodes (docs/architecture.md, "The
// YAML layer").
#include <yaml.h>
