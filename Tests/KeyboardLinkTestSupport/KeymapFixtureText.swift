/// Keymap files the unit and integration tests share.
package enum KeymapFixtureText {
    /// A ZMK keymap for the AULA F87 as people write them: #define layer names, comments, modifier functions,
    /// mod-tap, layer-tap, transparent and empty keys, a macro.
    package static let handWrittenZMK = """
        /*
         * A hand-written keymap for the AULA F87.
         */
        #include <behaviors.dtsi>
        #include <dt-bindings/zmk/keys.h>

        #define BASE 0
        #define NAV  1 // the navigation layer

        / {
            macros {
                hello: hello_macro {
                    compatible = "zmk,behavior-macro";
                    #binding-cells = <0>;
                    bindings
                        = <&macro_press &kp LSHIFT>
                        , <&macro_tap &kp H>
                        , <&macro_release &kp LSHIFT>
                        , <&macro_tap &kp I &kp EXCL>
                        ;
                };
            };

            keymap {
                compatible = "zmk,keymap";

                base_layer {
                    display-name = "Base";
                    bindings = <
          &kp ESC   &kp F1 &kp F2 &kp F3 &kp F4 &kp F5 &kp F6 &kp F7 &kp F8 &kp F9 &kp F10 &kp F11 &kp F12  &kp PSCRN &kp SLCK &kp PAUSE_BREAK
          &kp GRAVE &kp N1 &kp N2 &kp N3 &kp N4 &kp N5 &kp N6 &kp N7 &kp N8 &kp N9 &kp N0 &kp MINUS &kp EQUAL &kp BSPC  &kp INS &kp HOME &kp PG_UP
          &kp TAB   &kp Q &kp W &kp E &kp R &kp T &kp Y &kp U &kp I &kp O &kp P &kp LBKT &kp RBKT &kp BSLH  &kp DEL &kp END &kp PG_DN
          &mt LSHIFT A &kp A &kp S &kp D &kp F &kp G &kp H &kp J &kp K &kp L &kp SEMI &kp SQT &kp ENTER
          &kp LSHFT &kp Z &kp X &kp LC(C) &kp V &kp B &kp N &kp M &kp COMMA &kp DOT &kp FSLH &kp RSHFT  &kp UP
          &kp LCTRL &kp LGUI &kp LALT &lt NAV SPACE &kp RALT &mo NAV &kp K_APP &kp RCTRL  &kp LEFT &kp DOWN &kp RIGHT
                    >;
                };

                nav_layer {
                    display-name = "Nav";
                    bindings = <
          &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans
          &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans
          &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans
          &trans &trans &trans &trans &trans &trans &kp LEFT &kp DOWN &kp UP &kp RIGHT &trans &trans &trans
          &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans &trans
          &trans &trans &trans &trans &trans &tog BASE &hello &none &to BASE &trans &kp LS(LA(TAB))
                    >;
                };
            };
        };

        """

    /// The 1-based line of the first line of `text` containing `marker`.
    package static func line(of marker: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(marker) } ?? -1) + 1
    }
}
