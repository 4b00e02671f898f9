/// VIA keyboard definitions the unit and integration tests share.
///
/// `oneUp60HSE` and `sweet16V1` are copied unchanged from the-via/keyboards (`v3/1upkeyboards/1up60hse/1up60hse.json`
/// and `src/1upkeyboards/sweet16/sweet16v1.json`), which is under the MIT License:
///
///     Copyright (c) 2022 VIA
///
///     Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
///     documentation files (the "Software"), to deal in the Software without restriction, including without
///     limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the
///     Software, and to permit persons to whom the Software is furnished to do so, subject to the following
///     conditions:
///
///     The above copyright notice and this permission notice shall be included in all copies or substantial
///     portions of the Software.
///
///     THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED
///     TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL
///     THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
///     CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
///     DEALINGS IN THE SOFTWARE.
package enum VIADefinitionFixtureText {
    /// A v3 definition: a 60% ANSI board, one layout, no options.
    package static let oneUp60HSE = """
        {
          "name": "1up60hse",
          "vendorId": "0x6F75",
          "productId": "0x6873",
          "keycodes": ["qmk_lighting"],
          "menus": ["qmk_backlight_rgblight"],
          "matrix": {"rows": 5, "cols": 14},
          "layouts": {
            "keymap": [
              [
                {"c": "#6b7173", "t": "#aeb0b0"},
                "0,0",
                {"c": "#505557"},
                "0,1",
                "0,2",
                "0,3",
                "0,4",
                "0,5",
                "0,6",
                "0,7",
                "0,8",
                "0,9",
                "0,10",
                "0,11",
                "0,12",
                {"c": "#6b7173", "w": 2},
                "0,13"
              ],
              [
                {"w": 1.5},
                "1,0",
                {"c": "#505557"},
                "1,1",
                "1,2",
                "1,3",
                "1,4",
                "1,5",
                "1,6",
                "1,7",
                "1,8",
                "1,9",
                "1,10",
                "1,11",
                "1,12",
                {"c": "#6b7173", "w": 1.5},
                "1,13"
              ],
              [
                {"w": 1.75},
                "2,0",
                {"c": "#505557"},
                "2,1",
                "2,2",
                "2,3",
                "2,4",
                "2,5",
                "2,6",
                "2,7",
                "2,8",
                "2,9",
                "2,10",
                "2,11",
                {"c": "#afb0ae", "t": "#505557", "w": 2.25},
                "2,13"
              ],
              [
                {"c": "#6b7173", "t": "#aeb0b0", "w": 2.25},
                "3,0",
                {"c": "#505557"},
                "3,1",
                "3,2",
                "3,3",
                "3,4",
                "3,5",
                "3,6",
                "3,7",
                "3,8",
                "3,9",
                "3,10",
                {"c": "#6b7173", "w": 2.75},
                "3,13"
              ],
              [
                {"w": 1.25},
                "4,0",
                {"w": 1.25},
                "4,1",
                {"w": 1.25},
                "4,2",
                {"c": "#505557", "w": 6.25},
                "4,5",
                {"c": "#6b7173", "w": 1.25},
                "4,9",
                {"w": 1.25},
                "4,10",
                {"w": 1.25},
                "4,11",
                {"w": 1.25},
                "4,13"
              ]
            ]
          }
        }
        """

    /// A v2 definition (`lighting`): a 16-key pad with three layout options.
    package static let sweet16V1 = """
        {
            "name": "sweet16 v1",
            "vendorId": "0x6F75",
            "productId": "0x0161",
            "lighting": "qmk_backlight",
            "matrix": {
              "rows": 4,
              "cols": 4
            },
            "layouts": {
              "labels": [
                "2u Top Right",
                "2u Bottom Left",
                "2u Bottom Right"
              ],

              "keymap": [
                [
                  {
                    "x": 2.5
                  },
                  "0,0",
                  "0,1",
                  "0,2",
                  "0,3\\n\\n\\n0,0",
                  {
                    "x": 0.5,
                    "c": "#aaaaaa",
                    "h": 2
                  },
                  "0,3\\n\\n\\n0,1"
                ],
                [
                  {
                    "x": 2.5,
                    "c": "#cccccc"
                  },
                  "1,0",
                  "1,1",
                  "1,2",
                  "1,3\\n\\n\\n0,0"
                ],
                [
                  {
                    "x": 2.5
                  },
                  "2,0",
                  "2,1",
                  "2,2",
                  "2,3\\n\\n\\n2,0",
                  {
                    "x": 0.5,
                    "c": "#777777",
                    "h": 2
                  },
                  "2,3\\n\\n\\n2,1"
                ],
                [
                  {
                    "c": "#cccccc",
                    "w": 2
                  },
                  "3,1\\n\\n\\n1,1",
                  {
                    "x": 0.5
                  },
                  "3,0\\n\\n\\n1,0",
                  "3,1\\n\\n\\n1,0",
                  "3,2",
                  "3,3\\n\\n\\n2,0"
                ]
              ]
            }
          }
        """

    /// The 1up60hse's definition with other vendor and product IDs (`0x05AC`, `0x0256`: the demo's VGN 98Pro).
    package static func oneUp60HSE(vendorID: String, productID: String) -> String {
        oneUp60HSE.replacing("\"0x6F75\"", with: "\"\(vendorID)\"").replacing("\"0x6873\"", with: "\"\(productID)\"")
    }

    /// The line (from 1) of the first line holding `marker`.
    package static func line(of marker: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(marker) } ?? -1) + 1
    }
}
