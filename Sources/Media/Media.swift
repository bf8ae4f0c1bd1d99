// Media: the only module that touches FFmpeg.
import CFFmpeg
import Raster
