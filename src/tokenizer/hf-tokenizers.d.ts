// The parts of @huggingface/tokenizers this project uses. The package's own index.d.ts re-exports
// "./core/Tokenizer" without a file extension, which NodeNext resolution cannot follow, so without
// this declaration every import of it is typed `any`. Signatures copied from its types/core/Tokenizer.d.ts.
declare module '@huggingface/tokenizers' {
  export interface Encoding {
    ids: number[];
    tokens: string[];
    attention_mask: number[];
    token_type_ids?: number[];
  }
  export interface EncodeOptions {
    text_pair?: string | null;
    add_special_tokens?: boolean;
    return_token_type_ids?: boolean | null;
  }
  export interface DecodeOptions {
    skip_special_tokens?: boolean;
    clean_up_tokenization_spaces?: boolean | null;
  }
  export class Tokenizer {
    /** `tokenizer`: the parsed tokenizer.json; `config`: the parsed tokenizer_config.json. */
    constructor(tokenizer: object, config: object);
    encode(text: string, options?: EncodeOptions): Encoding;
    decode(tokenIds: number[] | bigint[], options?: DecodeOptions): string;
  }
}
