import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, input_dim, output_dim, hidden_size, dropout, use_layer_norm):
        super().__init__()
        self.dense = nn.Sequential(
            nn.Linear(input_dim, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, output_dim),
            nn.Dropout(dropout),
        )
        self.skip = nn.Linear(input_dim, output_dim)
        self.layer_norm = nn.LayerNorm(output_dim) if use_layer_norm else None

    def forward(self, x):
        x = self.dense(x) + self.skip(x)
        if self.layer_norm is not None:
            x = self.layer_norm(x)
        return x


class TideModule(nn.Module):
    def __init__(self, input_dim, output_dim, future_cov_dim, input_chunk_length,
                 output_chunk_length, hidden_size=32, temporal_width=4,
                 decoder_output_dim=8, dropout=0.1, use_layer_norm=True):
        super().__init__()
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.decoder_output_dim = decoder_output_dim
        self.future_cov_projection = ResidualBlock(future_cov_dim, temporal_width, hidden_size,
                                                   dropout, use_layer_norm)
        encoder_dim = input_chunk_length * input_dim + \
            (input_chunk_length + output_chunk_length) * temporal_width
        self.encoders = nn.Sequential(
            ResidualBlock(encoder_dim, hidden_size, hidden_size, dropout, use_layer_norm),
            ResidualBlock(hidden_size, hidden_size, hidden_size, dropout, use_layer_norm),
        )
        self.decoders = nn.Sequential(
            ResidualBlock(hidden_size, hidden_size, hidden_size, dropout, use_layer_norm),
            ResidualBlock(hidden_size, decoder_output_dim * output_chunk_length * output_dim,
                          hidden_size, dropout, use_layer_norm),
        )
        self.temporal_decoder = ResidualBlock(decoder_output_dim + temporal_width, output_dim,
                                              hidden_size, dropout, use_layer_norm)
        self.lookback_skip = nn.Linear(input_chunk_length, output_chunk_length)

    def forward(self, x_past, x_future_cov):
        batch = x_past.shape[0]
        projected = self.future_cov_projection(x_future_cov)
        encoded = torch.cat([x_past.flatten(1), projected.flatten(1)], dim=1)
        encoded = self.encoders(encoded)
        decoded = self.decoders(encoded)
        decoded = decoded.view(batch, self.output_chunk_length, -1)
        future_projected = projected[:, -self.output_chunk_length:]
        temporal_in = torch.cat([decoded[..., : self.decoder_output_dim], future_projected], dim=2)
        y = self.temporal_decoder(temporal_in)
        skip = self.lookback_skip(x_past[..., : self.output_dim].transpose(1, 2)).transpose(1, 2)
        return y + skip


class TiDEModel(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.hparams = hparams
        self.target_names = hparams["target"] if isinstance(hparams["target"], list) else [hparams["target"]]
        self.n_targets = len(self.target_names)
        self.model = TideModule(
            input_dim=self.n_targets + hparams["n_past_covariates"],
            output_dim=self.n_targets,
            future_cov_dim=hparams["n_future_covariates"],
            input_chunk_length=hparams["max_encoder_length"],
            output_chunk_length=hparams["max_prediction_length"],
            hidden_size=hparams["hidden_size"],
            dropout=hparams["dropout"],
        )

    def forward(self, x):
        prediction = self.model(x["encoder_cont"], x["decoder_cont"])
        if self.n_targets > 1:
            prediction = [prediction[..., i] for i in range(self.n_targets)]
            prediction = [i.clone().detach().requires_grad_(True) for i in prediction]
        else:
            prediction = prediction[..., 0]
        return {"prediction": prediction}
