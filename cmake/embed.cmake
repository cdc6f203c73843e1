# Writes OUTPUT: a C file defining `const char SYMBOL[]` with INPUT's bytes.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}" "/* generated from ${INPUT} */\nconst char ${SYMBOL}[] = {${bytes}0x00};\n")
