/**
 * One small source file per tree-sitter grammar list_code_definition_names ships, with the
 * outline a person would write for it by hand. Keyed by grammar, so a new language without a
 * sample fails the bundle test.
 */
export interface OutlineSample {
  readonly file: string;
  readonly source: string;
  /** The outline lines after the file's name. */
  readonly outline: readonly string[];
}

export const OUTLINE_SAMPLES: Readonly<Record<string, OutlineSample>> = {
  typescript: {
    file: "shapes.ts",
    source: `export interface Shape {
  area(): number;
}
export class Circle implements Shape {
  area(): number {
    return 0;
  }
}
export function unit(): Circle {
  return new Circle();
}
`,
    outline: ["1 | export interface Shape {", "4 | export class Circle implements Shape {", "5 |   area(): number {", "9 | export function unit(): Circle {"],
  },
  tsx: {
    file: "greeting.tsx",
    source: `type Props = { name: string };
export function Greeting({ name }: Props) {
  return <p>Hello {name}</p>;
}
export const Farewell = () => <p>Bye</p>;
`,
    outline: ["1 | type Props = { name: string };", "2 | export function Greeting({ name }: Props) {", "5 | export const Farewell = () => <p>Bye</p>;"],
  },
  javascript: {
    file: "counter.js",
    source: `class Counter {
  increment() {
    this.n += 1;
  }
}
function makeCounter() {
  return new Counter();
}
module.exports = { makeCounter };
`,
    outline: ["1 | class Counter {", "2 |   increment() {", "6 | function makeCounter() {"],
  },
  python: {
    file: "greeter.py",
    source: `class Greeter:
    def greet(self, name):
        return f"hello {name}"

def main():
    Greeter().greet("x")
`,
    outline: ["1 | class Greeter:", "2 |     def greet(self, name):", "5 | def main():"],
  },
  go: {
    file: "greeter.go",
    source: `package main

type Greeter struct {
	name string
}

func (g Greeter) Greet() string {
	return "hello " + g.name
}

func main() {}
`,
    outline: [" 3 | type Greeter struct {", " 7 | func (g Greeter) Greet() string {", "11 | func main() {}"],
  },
  rust: {
    file: "greeter.rs",
    source: `pub struct Greeter {
    name: String,
}

impl Greeter {
    pub fn greet(&self) -> String {
        format!("hello {}", self.name)
    }
}

fn main() {}
`,
    outline: [" 1 | pub struct Greeter {", " 5 | impl Greeter {", " 6 |     pub fn greet(&self) -> String {", "11 | fn main() {}"],
  },
  java: {
    file: "Greeter.java",
    source: `public class Greeter {
    private final String name = "x";

    public String greet() {
        return "hello " + name;
    }
}
`,
    outline: ["1 | public class Greeter {", "4 |     public String greet() {"],
  },
  c: {
    file: "greeter.c",
    source: `#include <stdio.h>

struct greeter { const char *name; };

void greet(struct greeter g)
{
    printf("hello %s\\n", g.name);
}
`,
    outline: ["3 | struct greeter { const char *name; };", "5 | void greet(struct greeter g)"],
  },
  cpp: {
    file: "greeter.cpp",
    source: `namespace demo {
class Greeter {
 public:
  void greet() const;
};
}
`,
    outline: ["1 | namespace demo {", "2 | class Greeter {", "4 |   void greet() const;"],
  },
};
