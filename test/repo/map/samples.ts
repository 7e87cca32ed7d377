/**
 * Small, real-looking source files, one per language Redline tags, written to temp dirs by the tests.
 * Each uses the constructs the tag queries must see: top-level functions, classes / structs / traits
 * with methods and fields, constants, types, nested containers, calls between them.
 */
export const SAMPLES: Record<string, { file: string; text: string }> = {
  'typescript': {
    file: 'src/parser.ts',
    text: String.raw`import { readFileSync } from 'node:fs';
import type { Options } from './options.js';

export const MAX_DEPTH = 3;
let counter = 0;

export interface Header {
  name: string;
  size: number;
}

export type Mode = 'fast' | 'slow';

export enum Color {
  Red,
  Green,
}

export class Parser extends Base implements Reader {
  private depth: number = 0;

  constructor(private readonly opts: Options) {
    super();
  }

  parseHeader(text: string): Header {
    const parts = splitLine(text);
    return { name: parts[0], size: Number(parts[1]) };
  }

  static create = (opts: Options): Parser => new Parser(opts);
}

export function splitLine(line: string): string[] {
  return line.split(',');
}

export const parseDate = async (s: string): Promise<Date> => {
  return new Date(readFileSync(s, 'utf8'));
};

namespace Util {
  export function helper() {}
}

abstract class Shape {
  abstract area(): number;
}
`,
  },
  'tsx': {
    file: 'src/App.tsx',
    text: String.raw`import React from 'react';

interface Props {
  title: string;
}

export function Header({ title }: Props) {
  return <h1 className="title">{formatTitle(title)}</h1>;
}

export const App = () => {
  return (
    <div>
      <Header title="x" />
    </div>
  );
};

function formatTitle(t: string): string {
  return t.toUpperCase();
}
`,
  },
  'javascript': {
    file: 'src/counter.jsx',
    text: String.raw`import { render } from 'react-dom';

export function Button({ label, onClick }) {
  return <button onClick={onClick}>{label}</button>;
}

export class Counter extends Component {
  state = { n: 0 };

  increment() {
    this.setState({ n: this.state.n + 1 });
  }

  render() {
    return <Button label="+" onClick={() => this.increment()} />;
  }
}

const double = (x) => x * 2;
const LIMIT = 10;
module.exports = { double };
render(<Counter />, document.getElementById('root'));
`,
  },
  'python': {
    file: 'pkg/parser.py',
    text: String.raw`import os
from typing import List

MAX_SIZE = 100


class Parser(Base):
    """Parses headers."""

    limit: int = 5

    def __init__(self, text):
        self.text = text

    @staticmethod
    def parse_header(line: str,
                     strict: bool = False) -> dict:
        parts = split_line(line)
        return {"name": parts[0]}


def split_line(line: str) -> List[str]:
    return line.split(",")


async def fetch(url):
    return await os.get(url)
`,
  },
  'go': {
    file: 'parser/parser.go',
    text: String.raw`package parser

import (
	"fmt"
	"strings"
)

const MaxDepth = 3

var counter = 0

type Header struct {
	Name string
	Size int
}

type Reader interface {
	Read(p []byte) (int, error)
}

type Mode int

func (p *Parser) ParseHeader(line string) (Header, error) {
	parts := splitLine(line)
	return Header{Name: parts[0]}, nil
}

func splitLine(line string) []string {
	return strings.Split(line, ",")
}

func main() {
	fmt.Println(splitLine("a,b"))
}
`,
  },
  'rust': {
    file: 'src/parser.rs',
    text: String.raw`use std::collections::HashMap;

pub const MAX_DEPTH: usize = 3;
static COUNTER: i32 = 0;

pub struct Parser {
    depth: usize,
}

pub enum Token {
    Word(String),
    Comma,
}

pub trait Reader {
    fn read(&self) -> String;
}

type Map = HashMap<String, String>;

impl Parser {
    pub fn new() -> Self {
        Parser { depth: 0 }
    }

    pub fn parse_header(&self, line: &str) -> Vec<String> {
        split_line(line)
    }
}

impl Reader for Parser {
    fn read(&self) -> String {
        String::new()
    }
}

fn split_line(line: &str) -> Vec<String> {
    line.split(',').map(|s| s.to_string()).collect()
}

mod util {
    pub fn helper() {}
}

macro_rules! square {
    ($x:expr) => { $x * $x };
}
`,
  },
  'java': {
    file: 'src/main/java/com/example/Parser.java',
    text: String.raw`package com.example;

import java.util.List;

public class Parser extends Base implements Reader {
    private static final int MAX_DEPTH = 3;
    private int depth;

    public Parser(int depth) {
        this.depth = depth;
    }

    @Override
    public Header parseHeader(String line)
            throws ParseException {
        List<String> parts = splitLine(line);
        return new Header(parts.get(0));
    }

    interface Visitor {
        void visit(Node n);
    }

    enum Mode { FAST, SLOW }
}

record Point(int x, int y) {}
`,
  },
  'c-sharp': {
    file: 'src/Parser.cs',
    text: String.raw`using System;
using System.Collections.Generic;

namespace Example.Parsing
{
    public interface IReader
    {
        string Read();
    }

    public class Parser : Base, IReader
    {
        private const int MaxDepth = 3;
        private int depth;

        public int Depth { get; set; }

        public Parser(int depth)
        {
            this.depth = depth;
        }

        public Header ParseHeader(string line)
        {
            var parts = SplitLine(line);
            return new Header(parts[0]);
        }

        public string Read() => "";
    }

    public struct Point { public int X; }

    public enum Mode { Fast, Slow }

    public record Person(string Name);
}
`,
  },
  'c': {
    file: 'src/parser.c',
    text: String.raw`#include <stdio.h>
#include "parser.h"

#define MAX_DEPTH 3

struct header {
    char *name;
    int size;
};

typedef struct header header_t;

enum mode { FAST, SLOW };

static int counter = 0;

static char **split_line(const char *line, int *n);

int parse_header(const char *line,
                 struct header *out)
{
    int n = 0;
    char **parts = split_line(line, &n);
    out->name = parts[0];
    return n;
}

int main(void) {
    printf("%d\n", parse_header("a,b", NULL));
    return 0;
}
`,
  },
  'cpp': {
    file: 'src/parser.cpp',
    text: String.raw`#include <string>
#include <vector>

namespace parsing {

class Parser : public Base {
public:
    Parser(int depth);
    std::vector<std::string> parseHeader(const std::string& line);
    int depth() const { return depth_; }
private:
    int depth_;
};

Parser::Parser(int depth) : depth_(depth) {}

std::vector<std::string> Parser::parseHeader(const std::string& line) {
    return splitLine(line);
}

template <typename T>
T maxOf(T a, T b) {
    return a > b ? a : b;
}

struct Point { int x; int y; };

enum class Mode { Fast, Slow };

}  // namespace parsing
`,
  },
  'ruby': {
    file: 'lib/parser.rb',
    text: String.raw`require 'json'

module Parsing
  MAX_DEPTH = 3

  class Parser < Base
    attr_reader :depth

    def initialize(depth)
      @depth = depth
    end

    def parse_header(line)
      parts = split_line(line)
      Header.new(parts.first)
    end

    def self.create
      new(0)
    end
  end

  def self.helper
    puts "hi"
  end
end

def split_line(line)
  line.split(",")
end
`,
  },
  'php': {
    file: 'src/Parser.php',
    text: String.raw`<?php

namespace App\Parsing;

use App\Models\Header;

const MAX_DEPTH = 3;

interface Reader
{
    public function read(): string;
}

trait Loggable
{
    public function log($msg) { echo $msg; }
}

class Parser extends Base implements Reader
{
    private $depth = 0;
    const LIMIT = 5;

    public function parseHeader(string $line): Header
    {
        $parts = splitLine($line);
        return new Header($parts[0]);
    }

    public function read(): string
    {
        return $this->format("x");
    }
}

function splitLine(string $line): array
{
    return explode(",", $line);
}

enum Mode { case Fast; case Slow; }
`,
  },
  'bash': {
    file: 'scripts/build.sh',
    text: String.raw`#!/usr/bin/env bash
set -euo pipefail

VERSION="1.0"

log() {
  echo "[$(date)] $*"
}

function build_all {
  log "building $VERSION"
  make -C src all
}

build_all "$@"
`,
  },
};
