import Jobs
import Media
