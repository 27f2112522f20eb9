from transformers import T5Config, T5ForConditionalGeneration

MODEL_CONFIG = {
    "vocab_size": 64,
    "d_model": 32,
    "d_kv": 8,
    "d_ff": 64,
    "num_layers": 2,
    "num_decoder_layers": 2,
    "num_heads": 4,
    "dropout_rate": 0.0,
    "pad_token_id": 0,
    "eos_token_id": 1,
    "decoder_start_token_id": 0,
}


def build_summarizer():
    config = T5Config(**MODEL_CONFIG)
    return T5ForConditionalGeneration(config)
