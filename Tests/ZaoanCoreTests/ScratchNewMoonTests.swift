import Foundation
import Testing
@testable import ZaoanAlmanac

@Test func scratchRefined() throws {
    var refined: [String] = []
    let first = NewMoonSearch.lunation(near: -2_177_452_800)  // 1901
    let last = NewMoonSearch.lunation(near: 4_133_980_800)   // 2101
    var worst = 0.0
    for lunation in first...last {
        let quick = NewMoonSearch.instant(ofLunation: lunation, theory: .meeus)
        let offset = Double(ChinaTime.offsetSeconds(at: quick))
        let s = (quick + offset).truncatingRemainder(dividingBy: 86_400)
        let m = min(abs(s), 86_400 - abs(s))
        if m < NewMoonSearch.doubtfulSeconds {
            let precise = NewMoonSearch.instant(ofLunation: lunation, theory: .elp2000, near: quick)
            worst = max(worst, abs(precise - quick))
            refined.append("\(ChinaTime.day(of: quick)) quick \(ChinaTime.day(of: quick)) \(Int(s)) precise \(ChinaTime.day(of: precise)) \(precise - quick)")
        }
    }
    print(refined.count, "refined", refined, worst)
}
