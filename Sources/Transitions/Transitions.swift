// Transitions: the catalog of view-controller transitions.
import Geometry
import Motion
import Raster
