// Jobs: job-file parsing and validation, scene building, the timeline.
import CYAML
