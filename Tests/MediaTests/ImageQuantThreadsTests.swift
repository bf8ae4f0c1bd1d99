import CImageQuant
import Testing

/// libimagequant's OpenMP thread count, looked up at run time (Debian's
/// libimagequant is built with OpenMP): set per calling thread, the count
/// before returned so the palette can put it back.
@Suite struct ImageQuantThreadsTests {
  @Test static func theThreadCountIsSetAndGivenBack() {
    let before = cimagequant_set_openmp_threads(3)
    #expect(before > 0)
    #expect(cimagequant_set_openmp_threads(before) == 3)
    #expect(cimagequant_set_openmp_threads(before) == before)
  }
}
